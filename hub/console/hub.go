package console

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/inspect"
)

// A Hub is the running hub as the management API sees it: what it reports,
// the state and catalogue it serves, a call through its one call path, and
// a restart. The console holds nothing of the hub's own.
type Hub interface {
	// Status is the /api/status document.
	Status() map[string]any
	// State is the state the hub serves.
	State() *state.State
	// Catalog is the catalogue, once the services not listed yet were
	// waited for as a client's first list waits.
	Catalog(ctx context.Context) *catalog.Catalog
	// Call calls a tool as a client of the endpoint c names would
	// (catalog.ErrNoTool, ErrNoProfile, ErrBadRoot).
	Call(ctx context.Context, c Call) (*mcp.CallToolResult, error)
	// Restart ends a service's process or connection and starts it again,
	// and returns its status then (ErrNoService, ErrBuiltin).
	Restart(ctx context.Context, service string) (ServiceStatus, error)
	// Login starts the login of a service with an oauth block, as
	// `chronicle auth login SERVICE` does, and returns the authorization
	// URL for the person's browser; the login completes when the
	// authorization server redirects to its loopback listener
	// (ErrNoService, ErrNoLogin).
	Login(ctx context.Context, service string) (LoginStart, error)
}

// A LoginStart is a login the console started: the URL to open in the
// browser. It holds no secret: a client id, a PKCE challenge and a state.
type LoginStart struct {
	Service          string `json:"service"`
	AuthorizationURL string `json:"authorization_url"`
}

// A Call is a tools/call the management API makes on a person's behalf:
// the exposed name, its arguments, and the endpoint it is made through (a
// profile, a root folder; "" for the hub's own).
type Call struct {
	Name      string
	Arguments map[string]any
	Root      string
	Profile   string
}

// Errors of the management surface, which the API answers with a status.
var (
	// ErrNoProfile is a call through a profile the state does not define.
	ErrNoProfile = errors.New("no profile named")
	// ErrBadRoot is a call with a root that is not an absolute folder.
	ErrBadRoot = errors.New("root must be an absolute folder")
	// ErrNoService is a restart of a service the hub does not offer.
	ErrNoService = errors.New("no service named")
	// ErrBuiltin is a restart of a service that runs inside the hub.
	ErrBuiltin = errors.New("the service runs inside the hub")
	// ErrNoLogin is a login of a service that has no oauth block (or a
	// hub without a login store).
	ErrNoLogin = errors.New("no login to make")
)

// Options are what the API reads besides the hub.
type Options struct {
	Hub       Hub
	Inspector *inspect.Inspector
	Masker    *mask.Masker
	// Resolver reads secret references (the takeover review's plan).
	Resolver secret.Resolver
	// Context is the hub's lifetime.
	Context context.Context
	// Workspace, when set, gives the console the skills and the takeover
	// review; without it those endpoints answer 503.
	Workspace *Workspace
	StatePath string
	Home      string
	Getenv    func(string) (string, bool)
	Version   string
}

// An API is the management API (/api/…) and the console's files: handlers
// the hub's route table names, each behind the guard of its row.
type API struct {
	hub       Hub
	opts      Options
	inspector *inspect.Inspector
	masker    *mask.Masker
	review    reviewCache
}

// New returns the API of a hub.
func New(opts Options) *API {
	return &API{hub: opts.Hub, opts: opts, inspector: opts.Inspector, masker: opts.Masker}
}

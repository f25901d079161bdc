package relay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/oauth"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/hub/upstream"
)

// Upstreams adapts the upstream pools to the hub's backends: one pool
// shared by every session, and for services with sessions = "per-client" a
// pool per client session, so that every request such an upstream makes is
// attributable to one client.
type Upstreams struct {
	Shared *upstream.Pool
	opts   upstream.PoolOptions
	pass   *PassThrough

	mu        sync.Mutex
	perClient []service.Service         // the per-client services
	clients   map[string]*upstream.Pool // session id → its own upstreams
	closed    bool
}

// NewUpstreams returns the hub's upstreams: secrets resolved by r, values
// masked by m, remote services with an oauth block reached with the
// logins in logins (nil: they ask for a login), onChange told when an
// upstream's lists change, pass given what upstreams send back.
func NewUpstreams(r secret.Resolver, log *slog.Logger, m *mask.Masker, logins *oauth.Store, onChange func(string), pass *PassThrough) *Upstreams {
	opts := upstream.PoolOptions{
		Resolver:       r,
		OAuth:          logins,
		Masker:         m,
		OnNotification: pass.notified,
		OnRequest:      pass.asks,
		Logger:         log,
		OnChange:       onChange,
		ClientInfo:     mcp.Implementation{Name: "chronicle-hub", Version: "1"},
	}
	return &Upstreams{Shared: upstream.NewPool(opts), opts: opts, pass: pass, clients: map[string]*upstream.Pool{}}
}

// Reconcile keeps unchanged upstreams running and replaces the others, in
// the shared pool (which also lists the per-client services) and in every
// client's pool.
func (u *Upstreams) Reconcile(services []service.Service) {
	u.Shared.Reconcile(services)
	var perClient []service.Service
	for _, s := range services {
		if s.PerClientSessions() {
			perClient = append(perClient, s)
		}
	}
	u.mu.Lock()
	u.perClient = perClient
	pools := make([]*upstream.Pool, 0, len(u.clients))
	for _, p := range u.clients {
		pools = append(pools, p)
	}
	u.mu.Unlock()
	for _, p := range pools {
		p.Reconcile(perClient)
	}
}

// forClient returns the upstream that serves a service for a session: its
// own when the service runs per client, else the shared one.
func (u *Upstreams) forClient(name, session string) *upstream.Upstream {
	if session != "" {
		u.mu.Lock()
		per := false
		for _, s := range u.perClient {
			per = per || s.Name == name
		}
		if per && !u.closed {
			p := u.clients[session]
			if p == nil {
				p = upstream.NewPool(u.opts)
				p.Reconcile(u.perClient)
				u.clients[session] = p
			}
			u.mu.Unlock()
			return p.Get(name)
		}
		u.mu.Unlock()
	}
	return u.Shared.Get(name)
}

// endSession stops a session's own upstreams.
func (u *Upstreams) endSession(session string) {
	u.mu.Lock()
	p := u.clients[session]
	delete(u.clients, session)
	u.mu.Unlock()
	if p != nil {
		p.Close()
	}
}

func (u *Upstreams) Backend(name string) Backend { return poolBackend{u, name} }

func (u *Upstreams) Status() []console.ServiceStatus {
	var out []console.ServiceStatus
	for _, s := range u.Shared.Status() {
		if s.Login == oauth.LoginRequired && s.Error == "" {
			// A running service that needs a wider login (a step-up)
			// says so and how, as a failed one does.
			s.Error = (&upstream.LoginRequired{Service: s.Name, Why: s.LoginWhy}).Error()
		}
		out = append(out, console.ServiceStatus{Name: s.Name, Transport: s.Transport, State: string(s.State), Error: s.Error, PID: s.PID, Restarts: s.Restarts, Tools: s.Tools, Login: s.Login})
	}
	return out
}

// RetryLogins lets every failed upstream of an OAuth service, shared and
// per client, start again at its next need (upstream.Pool.RetryLogins), and
// returns the names of the services concerned, each once.
func (u *Upstreams) RetryLogins() []string {
	names := u.Shared.RetryLogins()
	u.mu.Lock()
	pools := make([]*upstream.Pool, 0, len(u.clients))
	for _, p := range u.clients {
		pools = append(pools, p)
	}
	u.mu.Unlock()
	for _, p := range pools {
		for _, n := range p.RetryLogins() {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// Close stops every upstream, shared and per client.
func (u *Upstreams) Close() {
	u.mu.Lock()
	u.closed = true
	clients := u.clients
	u.clients = map[string]*upstream.Pool{}
	u.mu.Unlock()
	for _, p := range clients {
		p.Close()
	}
	if u.pass.Held != nil {
		u.pass.Held.Close()
	}
	u.Shared.Close()
}

// A poolBackend is one service's upstream, looked up at each use so that a
// reload that replaced it takes effect at once.
type poolBackend struct {
	ups  *Upstreams
	name string
}

func (b poolBackend) get() (*upstream.Upstream, error) {
	return b.getFor("")
}

// getFor returns the upstream serving the service for a session.
func (b poolBackend) getFor(session string) (*upstream.Upstream, error) {
	if u := b.ups.forClient(b.name, session); u != nil {
		return u, nil
	}
	return nil, fmt.Errorf("service %s is not running", b.name)
}

func (b poolBackend) List(ctx context.Context) (catalog.Listing, error) {
	u, err := b.get()
	if err != nil {
		return catalog.Listing{}, err
	}
	c, err := u.Catalog(ctx)
	if err != nil {
		return catalog.Listing{}, err
	}
	return catalog.Listing{Tools: c.Tools, Prompts: c.Prompts, Resources: c.Resources, Templates: c.ResourceTemplates}, nil
}

func (b poolBackend) Request(ctx context.Context, c *Caller, method string, params any) (json.RawMessage, error) {
	u, who, err := b.upstreamFor(c)
	if err != nil {
		return nil, err
	}
	return u.Request(ctx, who, method, params)
}

// upstreamFor returns the upstream that serves c's session (the shared one
// without a caller) and c as the upstream's requests name whom they are
// made for (nil without a caller).
func (b poolBackend) upstreamFor(c *Caller) (*upstream.Upstream, any, error) {
	if c == nil {
		u, err := b.getFor("")
		return u, nil, err
	}
	u, err := b.getFor(c.Session)
	return u, c, err
}

// RequestEra sends a request in the 2026-07-28 revision when the client
// speaks it or what it names (a tool, a prompt) is offered in that revision
// only, and the upstream speaks it; else on the session, as Request does
// (a 2026-07-28 client's request held open while the client answers what
// the upstream asks: crossEra, decision 0230).
func (b poolBackend) RequestEra(ctx context.Context, c *Caller, method string, params any, name string) (json.RawMessage, error) {
	u, who, err := b.upstreamFor(c)
	if err != nil {
		return nil, err
	}
	info := server.RequestProtocolInfoFromContext(ctx)
	// What the upstream offers is known from the shared pool's listing
	// (a client's own upstream of a per-client service is not listed).
	if modern := info != nil && info.Modern; modern || b.ModernOnly(method, name) {
		var caps *mcp.ClientCapabilities
		if modern {
			caps = info.ClientCapabilities
			if caps == nil {
				caps = &mcp.ClientCapabilities{}
			}
		}
		raw, err := u.RequestModern(ctx, method, params, caps)
		if !errors.Is(err, upstream.ErrNotModern) {
			return raw, err
		}
		if modern && b.ups.pass.Held != nil {
			return b.crossEra(ctx, u, c, method, params, name, caps)
		}
	}
	return u.Request(ctx, who, method, params)
}

func (b poolBackend) CallTool(ctx context.Context, name string, args any) (*mcp.CallToolResult, error) {
	u, err := b.get()
	if err != nil {
		return nil, err
	}
	return u.CallTool(ctx, name, args)
}

func (b poolBackend) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	u, err := b.get()
	if err != nil {
		return nil, err
	}
	return u.GetPrompt(ctx, name, args)
}

func (b poolBackend) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	u, err := b.get()
	if err != nil {
		return nil, err
	}
	return u.ReadResource(ctx, uri)
}

// ModernOnly reports whether what a request of method names is offered in
// the 2026-07-28 revision only, as the shared pool's upstream was listed.
func (b poolBackend) ModernOnly(method, name string) bool {
	u, err := b.get()
	return err == nil && u.ModernOnly(method, name)
}

// Polls reports whether the service may end a call's stream before its
// answer: it is reached over Streamable HTTP.
func (b poolBackend) Polls() bool {
	u, err := b.get()
	return err != nil || u.Polls()
}

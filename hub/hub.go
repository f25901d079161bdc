package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chronicle-dev/chronicle/hub/seal"
	"github.com/chronicle-dev/chronicle/hub/task"
	"github.com/chronicle-dev/chronicle/hub/wire"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/chronova"
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/oauth"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/access"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/hub/listing"
	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/relay/held"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/transport"
	"github.com/chronicle-dev/chronicle/hub/watch"
)

// Options configure a Hub.
type Options struct {
	// StatePath is ~/.chronicle/state.json: the hub serves what it records.
	StatePath string
	// Home is the user's home (secret("file:~/…"), ~/.chronova.cfg).
	Home string
	// EnvFile is ~/.chronicle/env, read for env: secrets the environment lacks.
	EnvFile string
	// Listen overrides hub.listen.
	Listen string
	// Root is the working directory of a stdio client (its scope).
	Root    string
	Version string
	Logger  *slog.Logger
	Getenv  func(string) (string, bool)
	// ListTimeout bounds listing one upstream (default 30s).
	ListTimeout time.Duration
	// ListGrace bounds how long a session's first list waits for
	// upstreams not listed yet (default listing.Grace).
	ListGrace time.Duration
	// SessionIdleTTL ends HTTP sessions idle this long (default 30 min).
	SessionIdleTTL time.Duration
	// UnusedSessionTTL ends Streamable HTTP sessions whose client sent
	// nothing with their id after initialize this long (default
	// UnusedSessionTTL).
	UnusedSessionTTL time.Duration
	// Workspace, when set, gives the console the skills and the takeover
	// review (hub/console); without it those endpoints answer 503.
	Workspace *console.Workspace

	// Profile is the profile a stdio client is served (serve --stdio
	// --profile NAME); "" for the whole hub.
	Profile string
	// Service is the one service a stdio client is served under the
	// names the server gives (serve --stdio --service NAME); "" for none.
	Service string
	// TokenFile is where the HTTP hub keeps its own token
	// (~/.chronicle/hub.token, made when missing) when hub { token } is
	// not set: the management API and the console require it. "": a token
	// made for this process only.
	TokenFile string
	// OAuthHome is ~/.chronicle, under which `chronicle auth login` keeps
	// the logins (engine/oauth) an upstream with an oauth block is reached
	// with; "": such an upstream does not start, asking for a login.
	OAuthHome string
	// CatalogPath is where the hub keeps the catalogue cache
	// (~/.chronicle/catalog.json); "" to keep none. The HTTP hub keeps it.
	CatalogPath string
}

// A Hub aggregates the services of the state behind one MCP server. It is
// the assembly: it makes the parts, wires them, and reloads the settings
// they read.
type Hub struct {
	opts      Options
	log       *slog.Logger
	masker    *mask.Masker
	resolver  secret.Resolver
	inspector *inspect.Inspector
	life      *relay.Lifetime // the hub's: Close ends it

	// mu guards the transport rules: they change with a reload and when
	// the HTTP hub binds its address and makes its token.
	mu    sync.Mutex
	guard access.Guard
	// localToken is the HTTP hub's own token (Options.TokenFile), set once
	// it serves.
	localToken string

	cfg     atomic.Pointer[relay.Settings] // the last reload's (settings.go)
	noState atomic.Bool                    // the state did not exist (said once)
	started time.Time

	// The parts, each owning what it holds.
	srv       *server.MCPServer    // mcp-go's server, which the transports serve
	clients   *session.Registry    // every client session (hub/session)
	stateless session.Stateless    // 2026-07-28 requests per endpoint
	lister    *listing.Lister      // the catalogue (hub/listing)
	logins    *relay.Logins        // the logins of OAuth services (hub/relay)
	scopes    *relay.Scopes        // what a request sees (scopes.go)
	lists     *relay.Announcer     // which list changes reach which session (announce.go)
	pass      *relay.PassThrough   // what flows back from upstreams (passthrough.go)
	pool      *relay.Upstreams     // the upstreams, shared and per client (pool.go)
	sessions  *relay.ClientHooks   // what the hub does when sessions come and go (clientsession.go)
	calls     *callPath            // the one call path (callpath.go)
	api       *console.API         // the management API and the console (hub/console)
	transport *transport.Transport // HTTP, SSE and stdio (hub/transport)
}

// New loads the state and prepares the hub. Upstreams are not started: a
// stdio child starts when a client first needs the catalogue.
func New(opts Options) (*Hub, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	if opts.Getenv == nil {
		opts.Getenv = os.LookupEnv
	}
	if opts.ListTimeout == 0 {
		opts.ListTimeout = 30 * time.Second
	}
	if opts.ListGrace == 0 {
		opts.ListGrace = listing.Grace
	}
	if opts.SessionIdleTTL == 0 {
		opts.SessionIdleTTL = SessionIdleTTL
	}
	if opts.UnusedSessionTTL == 0 {
		opts.UnusedSessionTTL = UnusedSessionTTL
	}
	masker := mask.NewMasker()
	// Every line the hub logs, its own, mcp-go's and the upstreams', is
	// masked for the person who reads it.
	opts.Logger = slog.New(inspect.LogHandler{Next: opts.Logger.Handler(), Masker: masker})
	h := &Hub{
		opts: opts, log: opts.Logger, masker: masker,
		resolver: opts.Resolver(),
		started:  time.Now(), life: relay.NewLifetime(),
	}
	h.clients = session.NewRegistry()
	h.lister = listing.New(listing.Options{
		Context: h.life.Context(), Go: h.life.Go, Services: func() []listing.Offer { return h.settings().Offers }, Masker: h.masker, Log: h.log,
		Timeout: opts.ListTimeout, Grace: opts.ListGrace, Note: func(why string) { h.inspector.Note("", why) },
		Built: func(c *catalog.Catalog) { h.calls.register(c) }, CachePath: opts.CatalogPath, MetaTokens: metaTokens,
	})
	h.inspector = inspect.New(h.masker)
	h.api = console.New(console.Options{
		Hub: h, Inspector: h.inspector, Masker: h.masker, Resolver: opts.Resolver(), Context: h.life.Context(),
		Workspace: opts.Workspace, StatePath: opts.StatePath, Home: opts.Home, Getenv: opts.Getenv, Version: opts.Version,
	})
	h.scopes = &relay.Scopes{
		Profile: opts.Profile, Service: opts.Service, Root: opts.Root, Clients: h.clients,
		Settings: h.settings, Lister: h.lister, Note: func(text string) { h.inspector.Note("", text) },
	}
	listen := relay.NewListenServer(opts.Version)
	h.lists = &relay.Announcer{Clients: h.clients, Lister: h.lister, Scopes: h.scopes, Listen: listen}
	h.transport = transport.New(transport.Core{
		Listen: listen, API: h.api, Log: h.log, Masker: h.masker, Sessions: h.clients, Context: h.life.Context(), Go: h.life.Go, Run: h.life.Run, Guard: h.Guard,
		Keep: h.lists.KeepPeeked, Note: relay.NoteRequest,
		MakeRoom:     func() (func(), string) { return h.sessions.MakeRoom() }, // the hooks are made below
		HasProfile:   func(name string) bool { return h.settings().HasProfile(name) },
		HasService:   func(name string) bool { return h.settings().HasService(name) },
		ServiceNames: func() string { return h.settings().ServiceNames() }, CountStateless: h.stateless.Count,
		Listening:  func(delta int64) { h.lists.Listeners.Add(int32(delta)) },
		StreamOpen: func(cs *session.Session) { h.sessions.StreamOpen(cs) },
		Task: func(ctx context.Context, cs *session.Session, body []byte) (json.RawMessage, *session.RPCError) {
			return h.calls.tasks.Serve(ctx, cs, body)
		},
		Call: func(ctx context.Context, cs *session.Session, m wire.Message) (func() (json.RawMessage, *session.RPCError), bool) {
			return h.calls.Call(ctx, cs, m) // h.calls is made later
		},
		StatelessTask: func(ctx context.Context, body []byte) (json.RawMessage, *session.RPCError) {
			return h.calls.ServeStatelessTask(ctx, body)
		},
		SessionIdleTTL: opts.SessionIdleTTL, UnusedSessionTTL: opts.UnusedSessionTTL, Service: opts.Service,
	})
	// One key seals what the hub hands its clients to bring back: task
	// handles and the requestStates of held calls.
	sealer := seal.Random()
	h.pass = &relay.PassThrough{
		Held:        held.New(sealer),
		NotifyStdio: h.transport.NotifyStdio, Clients: h.clients, Scopes: h.scopes, Settings: h.settings, Masker: h.masker,
		Inspector: h.inspector, Life: h.life, ListTimeout: opts.ListTimeout, Root: opts.Root,
	}
	var store *oauth.Store
	if opts.OAuthHome != "" {
		store = oauth.NewStore(opts.OAuthHome, fsys.OS{}, h.masker)
	}
	h.pool = relay.NewUpstreams(h.resolver, h.log, h.masker, store, func(service string) { h.lister.Invalidate("upstream "+service+" changed its lists", service) }, h.pass)
	h.pass.Pool = h.pool
	h.logins = &relay.Logins{Store: store, Pool: h.pool, Life: h.life, Inspector: h.inspector, Invalidate: h.lister.Invalidate}
	h.sessions = &relay.ClientHooks{Clients: h.clients, Pass: h.pass, Pool: h.pool, EndSession: h.transport.EndSession, Life: h.life, Log: h.log, Settings: h.settings}
	h.calls = &callPath{
		settings: h.settings, scopes: h.scopes, lister: h.lister, lists: h.lists, sessions: h.sessions,
		pass: h.pass, masker: h.masker, inspector: h.inspector, needsLogin: h.logins.Why,
	}
	h.calls.hooked = h.calls.hooks()
	h.calls.tasks = &task.Sessions{Routes: h.pass, Enter: h.calls.enter, Router: &task.Router{Sealer: sealer, Masker: h.masker,
		Backend: func(s string) relay.Backend { return h.settings().Backend(s) }, Reaches: h.scopes.InScope, Refusal: h.calls.refusal}}
	h.srv = server.NewMCPServer("chronicle", opts.Version,
		// listChanged is declared by the hub and announced by it
		// (announce.go), not by mcp-go on every change.
		server.WithToolCapabilities(false),
		server.WithPromptCapabilities(false),
		server.WithResourceCapabilities(true, false),
		server.WithPaginationLimit(PageSize),
		server.WithLogging(),
		server.WithCompletions(),
		server.WithRecovery(),
		server.WithHooks(h.calls.hooked),
		server.WithToolFilter(h.calls.toolFilter),
		server.WithPromptFilter(h.calls.promptFilter),
		server.WithPromptCompletionProvider(completer{h.calls}),
		server.WithResourceCompletionProvider(completer{h.calls}),
		server.WithInstructions("chronicle hub: every declared MCP service, as <service>__<tool>."),
	)
	h.transport.SetServer(h.srv)
	h.pass.Server = h.srv
	h.lists.Server = h.srv
	h.sessions.Server = h.srv
	h.calls.srv = h.srv
	// A client is asked for its roots once it says it is initialized.
	h.srv.AddNotificationHandler(string(mcp.MethodNotificationInitialized), h.sessions.Initialized)
	// The meta-tools are there from the start: in search mode what an
	// endpoint lists does not wait for any upstream.
	h.srv.AddTools(h.calls.metaTools()...)
	if err := h.Reload(); err != nil {
		return nil, err
	}
	if opts.Profile != "" && !h.settings().HasProfile(opts.Profile) {
		h.Close()
		return nil, fmt.Errorf("%s defines no profile named %q%s: declare it with a profile block and apply", opts.StatePath, opts.Profile, h.settings().ProfileNames())
	}
	if opts.Service != "" && !h.settings().HasService(opts.Service) {
		h.Close()
		return nil, fmt.Errorf("%s declares no service named %q%s: declare it with a service block and apply", opts.StatePath, opts.Service, h.settings().ServiceNames())
	}
	return h, nil
}

// Guard returns the transport rules for the current settings.
func (h *Hub) Guard() access.Guard {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.guard
	g.LocalToken, g.TokenFile = h.localToken, h.opts.TokenFile
	return g
}

// Server is the MCP server the transports serve.
func (h *Hub) Server() *server.MCPServer { return h.srv }

// Inspector is the hub's message log.
func (h *Hub) Inspector() *inspect.Inspector { return h.inspector }

// Reload reads the state again and applies it: new, changed and removed
// services take effect, unchanged upstreams keep running, and sessions are
// told their lists changed.
func (h *Hub) Reload() error {
	st, err := state.Load(h.opts.StatePath)
	if err != nil {
		return err
	}
	if st.IsNew() && !h.noState.Swap(true) {
		// A machine chronicle does not manage yet: an empty hub, whose
		// console shows the takeover review; the first apply fills it.
		h.log.Info("no state yet: serving no services until chronicle init or apply records some", "state", h.opts.StatePath)
	}
	listen := config.DefaultListen
	var token string
	var hostnames []string
	open := false
	if st.Hub != nil {
		open = st.Hub.LocalClients == config.LocalClientsOpen
		if st.Hub.Listen != "" {
			listen = st.Hub.Listen
		}
		if !st.Hub.Token.IsZero() {
			if token, err = h.resolver.Resolve(st.Hub.Token); err != nil {
				return fmt.Errorf("hub token: %w", err)
			}
			h.masker.Add(token)
		}
		hostnames = st.Hub.Hostnames
	}
	h.mu.Lock()
	if h.opts.Listen != "" {
		listen = h.opts.Listen
	}
	h.mu.Unlock()

	backends := map[string]relay.Backend{}
	var projects []exposure.Scoped
	policies := map[string]*state.Policy{}
	var specs []service.Service
	expose := catalog.ExposureOf(st, 0)
	for name, s := range st.Services {
		p := st.Policies[name]
		if !s.Enabled || (p.Enabled != nil && !*p.Enabled) || !h.serves(expose, name) {
			continue
		}
		s.Name = name
		specs = append(specs, s)
		projects = append(projects, exposure.Scoped{Name: name, Project: s.Project})
		policies[name] = &p
	}
	h.pool.Reconcile(specs)
	for _, s := range specs {
		backends[s.Name] = h.pool.Backend(s.Name)
	}
	if st.Chronova != nil && h.serves(expose, names.Chronova) {
		if b, err := h.chronovaBackend(st.Chronova); err != nil {
			h.log.Warn("chronova", "error", h.masker.Text(err.Error()))
		} else if p := st.Policies[names.Chronova]; p.Enabled == nil || *p.Enabled {
			backends[names.Chronova] = b
			projects = append(projects, exposure.Scoped{Name: names.Chronova})
			policies[names.Chronova] = &p
		}
	}
	sort.Slice(projects, func(i, j int) bool { return projects[i].Name < projects[j].Name })

	offered := map[string]bool{}
	for _, p := range projects {
		offered[p.Name] = true
	}
	h.lister.Forget(offered)
	next := &relay.Settings{State: st, Backends: backends, Projects: projects, Policies: policies, Exposure: expose}
	next.Offers = make([]listing.Offer, 0, len(projects))
	for _, p := range projects {
		next.Offers = append(next.Offers, listing.Offer{Name: p.Name, Project: p.Project, Policy: policies[p.Name], Backend: backends[p.Name]})
	}
	next.Exposure.Gen = h.settings().Exposure.Gen + 1
	h.cfg.Store(next)
	h.mu.Lock()
	h.guard = access.Guard{Listen: listen, Token: token, Hostnames: hostnames, OpenLocal: open}
	if h.guard.EveryInterface() {
		h.guard.Own = access.OwnAddresses()
	}
	h.mu.Unlock()
	if h.lister.Built() != nil {
		// Policies and scopes apply to the listings the hub has at once;
		// the listings themselves are refreshed below.
		h.lister.Rebuild()
	}
	h.lister.Invalidate("state reloaded (serial " + fmt.Sprint(st.Serial) + ")")
	return nil
}

// serves reports whether the hub serves a service at all: every service,
// unless it serves one profile (serve --stdio --profile NAME), which needs
// only its own (exposure.Profile.Needs); the others are never started.
// A profile the state no longer defines needs none.
func (h *Hub) serves(cfg catalog.Exposure, service string) bool {
	if h.opts.Service != "" {
		return service == h.opts.Service
	}
	if h.opts.Profile == "" {
		return true
	}
	p := cfg.Profiles[h.opts.Profile]
	return p != nil && p.Needs(service)
}

// chronovaBackend runs the Chronova bridge in process as the chronova service.
func (h *Hub) chronovaBackend(c *state.Chronova) (relay.Backend, error) {
	src := chronova.Sources{Home: h.opts.Home, APIURL: c.APIURL, Getenv: func(k string) string { v, _ := h.opts.Getenv(k); return v }}
	if !c.APIKey.IsZero() {
		key, err := h.resolver.Resolve(c.APIKey)
		if err != nil {
			return nil, fmt.Errorf("chronova api_key: %w", err)
		}
		h.masker.Add(key)
		src.APIKey = key
	}
	client, _, err := chronova.ResolveClient(chronova.Options{Sources: src, Version: h.opts.Version})
	if err != nil {
		return nil, err
	}
	return relay.LocalBackend{Server: chronova.NewServer(client, h.opts.Version)}, nil
}

// Close ends every listing and stops every upstream; no goroutine the hub
// started outlives it.
func (h *Hub) Close() {
	h.life.Close()
	h.pool.Close()
}

// WatchState reloads the hub whenever the state file changes, until ctx ends.
func (h *Hub) WatchState(ctx context.Context) error {
	return watch.File(ctx, h.opts.StatePath, func() {
		if err := h.Reload(); err != nil && !errors.Is(err, fs.ErrNotExist) {
			h.log.Warn("reload", "error", h.masker.Text(err.Error()))
			h.inspector.Note("", "reload failed: "+err.Error())
		}
	})
}

// WatchLogins follows the logins `chronicle auth login` writes to
// ~/.chronicle/oauth, until ctx ends: when one appears or changes, the
// services with an oauth block that failed (for want of a login, most
// likely) start again at once, and their lists are read again, so that
// every client is told of their tools with list_changed. Every hub
// watches, HTTP and each serve --stdio: each has its own upstreams. It
// returns nil at once for a hub without Options.OAuthHome.
func (h *Hub) WatchLogins(ctx context.Context) error { return h.logins.Watch(ctx) }

// PageSize is how many tools one tools/list page holds: clients that ignore
// nextCursor keep working up to it. The cursor is opaque and stable (the
// encoded name of the page's last tool); one that does not decode is -32602.
const PageSize = 500

// settings returns the settings of the last reload.
func (h *Hub) settings() *relay.Settings {
	if s := h.cfg.Load(); s != nil {
		return s
	}
	return relay.NoSettings
}

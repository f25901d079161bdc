package relay

import (
	"context"
	"log/slog"
	"time"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The hub's side of the registry: mcp-go's session hooks, the roots
// handshake, and ending sessions under the cap.

// A ClientHooks is what the hub does when client sessions come and go:
// mcp-go's hooks keep the registry, a client that offers roots is asked
// for them, a session's subscriptions and own upstreams end with it, and
// the session cap ends the idlest.
type ClientHooks struct {
	Clients *session.Registry
	Server  *server.MCPServer // set once the hub made it
	Pass    *PassThrough
	Pool    *Upstreams
	// EndSession ends a session over its transport (an HTTP session as a
	// DELETE from its client would).
	EndSession func(cs *session.Session)
	Life       *Lifetime
	Log        *slog.Logger
	Settings   func() *Settings
	// Ended, when set (tests), is told the id of each session that Ended.
	Ended chan string
}

// Of returns the client session of an MCP request, or nil (a
// 2026-07-28 request, or the hub's API).
func (h *ClientHooks) Of(ctx context.Context) *session.Session {
	return h.Clients.Get(SessionID(ctx))
}

// Registered is mcp-go's session registration hook.
func (h *ClientHooks) Registered(ctx context.Context, t server.ClientSession) {
	if cs := h.Clients.Register(ctx, t); cs != nil && cs.Registered() {
		h.askRoots(cs)
	}
}

// StreamOpen is told when a Streamable HTTP session's standalone GET
// stream is open: the client may now be asked for its roots.
func (h *ClientHooks) StreamOpen(cs *session.Session) {
	if cs.StreamOpen() {
		h.askRoots(cs)
	}
}

// Unregistered is mcp-go's unregistration hook: the session's entry
// goes, and so do its subscriptions, log level and own upstreams.
func (h *ClientHooks) Unregistered(_ context.Context, t server.ClientSession) {
	id := t.SessionID()
	h.Clients.Remove(id)
	h.Pass.dropSession(id)
	h.Pool.endSession(id)
	if h.Ended != nil {
		select {
		case h.Ended <- id:
		default:
		}
	}
}

// Initialized handles notifications/initialized: the client may now
// be asked for its roots.
func (h *ClientHooks) Initialized(ctx context.Context, _ mcp.JSONRPCNotification) {
	if cs := h.Of(ctx); cs != nil && cs.Initialized() {
		h.askRoots(cs)
	}
}

// Initialize is the part of the initialize hook about the session:
// the endpoint it is bound to, the folder initialize's request named, and
// whether the client offers roots and elicitation.
func (h *ClientHooks) Initialize(ctx context.Context, req *mcp.InitializeRequest) {
	cs := h.Of(ctx)
	if cs == nil {
		return
	}
	if r := session.RootOf(ctx); r != "" {
		cs.SetRoot(r)
	}
	if ep, ok := session.EndpointOf(ctx); ok {
		cs.Bind(ep.Key())
	}
	if req.Params.Capabilities.Elicitation != nil {
		cs.OfferedElicitation()
	}
	if req.Params.Capabilities.Roots != nil && cs.OfferedRoots() {
		h.askRoots(cs)
	}
}

// askRoots asks a client that offers roots for them, in the background,
// and takes the first as the session's folder unless it has one.
func (h *ClientHooks) askRoots(cs *session.Session) {
	t := cs.ClientSession()
	h.Life.Go(func() {
		ctx, cancel := context.WithTimeout(h.Life.ctx, 10*time.Second)
		defer cancel()
		res, err := h.Server.RequestRoots(h.Server.WithContext(ctx, t), mcp.ListRootsRequest{})
		if err != nil || res == nil || len(res.Roots) == 0 {
			return
		}
		if root := wire.RootFromURI(res.Roots[0].URI); root != "" && cs.RootFromClient(root) {
			_ = h.Server.SendNotificationToSpecificClient(cs.ID(), string(mcp.MethodNotificationToolsListChanged), nil)
			_ = h.Server.SendNotificationToSpecificClient(cs.ID(), string(mcp.MethodNotificationPromptsListChanged), nil)
		}
	})
}

// MakeRoom ends sessions until a new one fits under hub { max_sessions }
// (session.Registry.MakeRoom).
func (h *ClientHooks) MakeRoom() (release func(), refused string) {
	limit := h.Settings().MaxSessions()
	return h.Clients.MakeRoom(limit, func(cs *session.Session) {
		h.Log.Info("ending the client session idle longest: the hub holds as many as hub { max_sessions } allows", "session", cs.ID(), "max_sessions", limit)
		h.end(cs)
	})
}

// end ends a session the hub chose to end: over HTTP as a DELETE
// from its client would (transport.EndSession); a pending id, or a hub
// that serves no HTTP, just stops knowing it.
func (h *ClientHooks) end(cs *session.Session) {
	h.EndSession(cs)
}

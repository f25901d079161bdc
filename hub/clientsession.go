package hub

import (
	"context"
	"log/slog"
	"time"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/transport"
	"github.com/chronicle-dev/chronicle/hub/wire"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The hub's side of the registry: mcp-go's session hooks, the roots
// handshake, and ending sessions under the cap.

// A clientHooks is what the hub does when client sessions come and go:
// mcp-go's hooks keep the registry, a client that offers roots is asked
// for them, a session's subscriptions and own upstreams end with it, and
// the session cap ends the idlest.
type clientHooks struct {
	clients   *session.Registry
	srv       *server.MCPServer // set once the hub made it
	pass      *passThrough
	pool      *upstreams
	transport *transport.Transport
	life      *lifetime
	log       *slog.Logger
	settings  func() *settings
	// ended, when set (tests), is told the id of each session that ended.
	ended chan string
}

// of returns the client session of an MCP request, or nil (a
// 2026-07-28 request, or the hub's API).
func (h *clientHooks) of(ctx context.Context) *session.Session {
	return h.clients.Get(sessionID(ctx))
}

// registered is mcp-go's session registration hook.
func (h *clientHooks) registered(ctx context.Context, t server.ClientSession) {
	if cs := h.clients.Register(ctx, t); cs != nil && cs.Registered() {
		h.askRoots(cs)
	}
}

// unregistered is mcp-go's unregistration hook: the session's entry
// goes, and so do its subscriptions, log level and own upstreams.
func (h *clientHooks) unregistered(_ context.Context, t server.ClientSession) {
	id := t.SessionID()
	h.clients.Remove(id)
	h.pass.dropSession(id)
	h.pool.endSession(id)
	if h.ended != nil {
		select {
		case h.ended <- id:
		default:
		}
	}
}

// initialized handles notifications/initialized: the client may now
// be asked for its roots.
func (h *clientHooks) initialized(ctx context.Context, _ mcp.JSONRPCNotification) {
	if cs := h.of(ctx); cs != nil && cs.Initialized() {
		h.askRoots(cs)
	}
}

// initialize is the part of the initialize hook about the session:
// the endpoint it is bound to, the folder initialize's request named, and
// whether the client offers roots.
func (h *clientHooks) initialize(ctx context.Context, req *mcp.InitializeRequest) {
	cs := h.of(ctx)
	if cs == nil {
		return
	}
	if r := session.RootOf(ctx); r != "" {
		cs.SetRoot(r)
	}
	if ep, ok := session.EndpointOf(ctx); ok {
		cs.Bind(ep.Key())
	}
	if req.Params.Capabilities.Roots != nil && cs.OfferedRoots() {
		h.askRoots(cs)
	}
}

// askRoots asks a client that offers roots for them, in the background,
// and takes the first as the session's folder unless it has one.
func (h *clientHooks) askRoots(cs *session.Session) {
	t := cs.ClientSession()
	h.life.goTracked(func() {
		ctx, cancel := context.WithTimeout(h.life.ctx, 10*time.Second)
		defer cancel()
		res, err := h.srv.RequestRoots(h.srv.WithContext(ctx, t), mcp.ListRootsRequest{})
		if err != nil || res == nil || len(res.Roots) == 0 {
			return
		}
		if root := wire.RootFromURI(res.Roots[0].URI); root != "" && cs.RootFromClient(root) {
			_ = h.srv.SendNotificationToSpecificClient(cs.ID(), string(mcp.MethodNotificationToolsListChanged), nil)
			_ = h.srv.SendNotificationToSpecificClient(cs.ID(), string(mcp.MethodNotificationPromptsListChanged), nil)
		}
	})
}

// makeRoom ends sessions until a new one fits under hub { max_sessions }
// (session.Registry.MakeRoom).
func (h *clientHooks) makeRoom() (release func(), refused string) {
	limit := h.settings().maxSessions()
	return h.clients.MakeRoom(limit, func(cs *session.Session) {
		h.log.Info("ending the client session idle longest: the hub holds as many as hub { max_sessions } allows", "session", cs.ID(), "max_sessions", limit)
		h.end(cs)
	})
}

// end ends a session the hub chose to end: over HTTP as a DELETE
// from its client would (transport.EndSession); a pending id, or a hub
// that serves no HTTP, just stops knowing it.
func (h *clientHooks) end(cs *session.Session) {
	h.transport.EndSession(cs)
}

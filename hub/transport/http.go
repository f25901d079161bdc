package transport

import (
	"bytes"
	"context"
	"io"
	"net/http"

	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// RootHeader carries the folder a client works in (its scope).
const RootHeader = "X-Chronicle-Root"

// Handler returns the hub's HTTP handler (see endpoint.go and routes.go for its paths),
// behind the transport rules.
func (h *Transport) Handler() http.Handler {
	mcpHTTP := server.NewStreamableHTTPServer(h.core.Server,
		server.WithEndpointPath("/mcp"),
		server.WithStateful(true),
		server.WithSessionIdManager(h.core.Sessions),
		// No idle timeout of mcp-go's: the hub serves some calls without
		// it (call.go), so the registry's Sweep ends idle sessions.
		server.WithHTTPContextFunc(h.httpContext),
		server.WithStreamableHTTPLogger(h.core.Log),
		// Resumable streams, with each session's last events only
		// (session.EventStore); the hub's own request streams (stream.go)
		// keep theirs in the same store.
		server.WithEventStore(h.events),
		// The Guard checks Host and Origin itself, for loopback and
		// non-loopback listeners alike.
		server.WithDisableLocalhostProtection(true),
	)
	legacy := server.NewSSEServer(h.core.Server,
		server.WithSSEEndpoint("/sse"),
		server.WithMessageEndpoint("/message"),
		server.WithSSEContextFunc(h.httpContext),
		// ?root= of the stream carries over to every message it is told to post.
		server.WithAppendQueryToMessageEndpoint(),
		// mcp-go answers Access-Control-Allow-Origin: * on /sse unless a
		// CORS configuration is given: the hub's own origin is the only
		// one it names (cross-origin requests are refused before, by the
		// route's guard).
		server.WithSSECORS(server.WithCORSAllowedOrigins("http://"+h.core.Guard().Listen)),
	)
	h.mu.Lock()
	h.mcpHTTP, h.legacy = mcpHTTP, legacy
	if h.core.Listen != nil {
		// Stateless only: it serves 2026-07-28 requests alone.
		h.listen = server.NewStreamableHTTPServer(h.core.Listen,
			server.WithEndpointPath("/mcp"),
			server.WithHTTPContextFunc(h.httpContext),
			server.WithStreamableHTTPLogger(h.core.Log),
			server.WithDisableLocalhostProtection(true),
		)
	}
	h.mu.Unlock()
	h.sweeping.Do(func() {
		h.core.Go(func() {
			h.core.Sessions.Sweep(h.core.Context, h.core.UnusedSessionTTL, h.core.SessionIdleTTL, h.EndSession)
		})
	})
	mux := http.NewServeMux()
	for _, rt := range h.routes(mcpHTTP, legacy.SSEHandler(), legacy.MessageHandler()) {
		mux.Handle(rt.Pattern, h.guarded(rt.Rule, rt.Handler))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		mux.ServeHTTP(w, r)
	})
}

// serveLegacy serves the HTTP+SSE transport of 2024-11-05 with the scope of
// ?root= or X-Chronicle-Root.
func (h *Transport) serveLegacy(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ep := session.Endpoint{Path: "/sse"}
		root := r.URL.Query().Get("root")
		if root == "" {
			root = r.Header.Get(RootHeader)
		}
		ctx := r.Context()
		if ep.Root = wire.RootFromURI(root); ep.Root != "" {
			ctx = session.WithRoot(ctx, ep.Root)
		}
		ctx = session.WithEndpoint(ctx, ep)
		if r.Method == http.MethodPost && r.Body != nil {
			buf, err := readBody(r.Body)
			defer releaseBody(buf)
			if err != nil {
				wire.BodyError(w, err)
				return
			}
			body := buf.Bytes()
			r.Body = io.NopCloser(bytes.NewReader(body))
			m := wire.Peek(body)
			if cs := h.core.Sessions.Get(r.URL.Query().Get("sessionId")); cs != nil {
				cs.Touch()
				h.core.Note(cs, m) // answered when its response goes out on the stream
				if h.serveLegacyTask(ctx, w, cs, body) {
					return
				}
			}
			if name := m.CalledTool(); name != "" {
				ctx = session.WithCalling(ctx, name)
			}
			next.ServeHTTP(w, r.WithContext(ctx))
			return
		}
		release, msg := h.core.MakeRoom()
		if msg != "" {
			wire.WriteError(w, http.StatusServiceUnavailable, msg)
			return
		}
		// A legacy SSE stream lasts as long as its session, which counts
		// itself once it is made: the room is not held for it.
		release()
		h.serveOutbound(next, w, r.WithContext(ctx), "")
	})
}

// httpContext passes what the router found on to mcp-go's request context.
func (h *Transport) httpContext(ctx context.Context, r *http.Request) context.Context {
	return session.Carry(ctx, r.Context())
}

package hub

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// SessionIdleTTL is how long an idle HTTP session lives by default.
const SessionIdleTTL = 30 * time.Minute

// UnusedSessionTTL is how long, by default, a Streamable HTTP session lives
// when its client sends nothing with its id after initialize (not even
// notifications/initialized, which a client sends at once).
const UnusedSessionTTL = 10 * time.Second

// RootHeader carries the folder a client works in (its scope).
const RootHeader = "X-Chronicle-Root"

// Handler returns the hub's HTTP handler (see router.go for its paths),
// behind the transport rules.
func (h *Hub) Handler() http.Handler {
	mcpHTTP := server.NewStreamableHTTPServer(h.srv,
		server.WithEndpointPath("/mcp"),
		server.WithStateful(true),
		server.WithSessionIdManager(h.clients),
		server.WithSessionIdleTTL(h.opts.SessionIdleTTL),
		server.WithHTTPContextFunc(h.httpContext),
		server.WithStreamableHTTPLogger(h.log),
		// Resumable streams, with each session's last events only
		// (eventstore.go).
		server.WithEventStore(session.NewEventStore()),
		// The Guard checks Host and Origin itself, for loopback and
		// non-loopback listeners alike.
		server.WithDisableLocalhostProtection(true),
	)
	legacy := server.NewSSEServer(h.srv,
		server.WithSSEEndpoint("/sse"),
		server.WithMessageEndpoint("/message"),
		server.WithSSEContextFunc(h.httpContext),
		// ?root= of the stream carries over to every message it is told to post.
		server.WithAppendQueryToMessageEndpoint(),
		// mcp-go answers Access-Control-Allow-Origin: * on /sse unless a
		// CORS configuration is given: the hub's own origin is the only
		// one it names (cross-origin requests are refused before, by the
		// route's guard).
		server.WithSSECORS(server.WithCORSAllowedOrigins("http://"+h.Guard().Listen)),
	)
	h.mu.Lock()
	h.mcpHTTP = mcpHTTP
	h.mu.Unlock()
	h.sweeping.Do(func() {
		h.life.goTracked(func() { h.clients.Sweep(h.life.ctx, h.opts.UnusedSessionTTL, h.endSession) })
	})
	mux := http.NewServeMux()
	for _, rt := range h.routes(mcpHTTP, legacy.SSEHandler(), legacy.MessageHandler()) {
		mux.Handle(rt.pattern, h.guarded(rt.guard, rt.handler))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		mux.ServeHTTP(w, r)
	})
}

// serveLegacy serves the HTTP+SSE transport of 2024-11-05 with the scope of
// ?root= or X-Chronicle-Root.
func (h *Hub) serveLegacy(next http.Handler) http.Handler {
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
			if cs := h.clients.Get(r.URL.Query().Get("sessionId")); cs != nil {
				cs.Touch()
				h.noteRequest(cs, m) // answered when its response goes out on the stream
			}
			if name := m.CalledTool(); name != "" {
				ctx = session.WithCalling(ctx, name)
			}
			next.ServeHTTP(w, r.WithContext(ctx))
			return
		}
		release, msg := h.makeRoom()
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
func (h *Hub) httpContext(ctx context.Context, r *http.Request) context.Context {
	return session.Carry(ctx, r.Context())
}

// ServeHTTP serves on ln until ctx ends, then shuts down gracefully and
// stops every upstream.
func (h *Hub) ServeHTTP(ctx context.Context, ln net.Listener) error {
	if msg := h.Guard().StartError(); msg != "" {
		return errors.New(msg)
	}
	// The address really bound (port 0 picks one) is the hub's from now on.
	h.mu.Lock()
	h.opts.Listen = ln.Addr().String()
	h.guard.Listen = h.opts.Listen
	h.mu.Unlock()
	if _, err := h.EnsureToken(); err != nil {
		return err
	}
	srv := &http.Server{Handler: h.Handler(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		h.Close()
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(shut)
	h.Close()
	if errors.Is(err, context.DeadlineExceeded) {
		return srv.Close()
	}
	return err
}

// EnsureToken returns the token the management API (and, unless hub {
// local_clients = "open" }, the MCP endpoints) requires, giving the HTTP
// hub its own when hub { token } is not set: the one in Options.TokenFile
// (made when missing, as apply makes it: engine/hubtoken), or one for this
// process.
// ServeHTTP calls it; serve calls it first to print the console's address.
func (h *Hub) EnsureToken() (string, error) {
	if tok := h.Token(); tok != "" {
		return tok, nil
	}
	tok := hubtoken.New()
	if h.opts.TokenFile != "" {
		var err error
		if tok, err = hubtoken.Load(fsys.OS{}, h.opts.TokenFile); err != nil {
			return "", fmt.Errorf("hub token: %w", err)
		}
	}
	h.masker.Add(tok)
	h.mu.Lock()
	h.localToken = tok
	h.mu.Unlock()
	return tok, nil
}

// Token returns the token the management API requires: hub { token }, else
// the hub's own (set once it serves HTTP).
func (h *Hub) Token() string {
	g := h.Guard()
	if g.Token != "" {
		return g.Token
	}
	return g.LocalToken
}

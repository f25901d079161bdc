package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
)

// SessionIdleTTL is how long an idle HTTP session lives by default.
const SessionIdleTTL = 30 * time.Minute

// UnusedSessionTTL is how long, by default, a Streamable HTTP session lives
// when its client sends nothing with its id after initialize (not even
// notifications/initialized, which a client sends at once).
const UnusedSessionTTL = 10 * time.Second

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
	// Shutdown waits for requests to end; a listen stream's ends when told.
	srv.RegisterOnShutdown(h.transport.EndListens)
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

// Handler returns the hub's HTTP handler: every route of the one route
// table (hub/transport), behind its rule.
func (h *Hub) Handler() http.Handler { return h.transport.Handler() }

// ServeStdio serves one client on in and out (chronicle serve --stdio, the
// entry link { hub = true } writes) until in ends or ctx is done, then
// closes the hub. The session's scope is Options.Root, the client's
// working directory.
func (h *Hub) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	err := h.transport.ServeStdio(ctx, in, out)
	h.Close()
	return err
}

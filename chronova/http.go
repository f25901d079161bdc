package chronova

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// DefaultHTTPAddr is where `chronicle chronova --http` listens by default.
const DefaultHTTPAddr = "127.0.0.1:7312"

// Listen binds addr for ServeHTTP. The bridge serves loopback only: an empty
// host or "localhost" means 127.0.0.1, and any host that is not a loopback
// address is refused. Port 0 picks a free port (see the listener's Addr).
func Listen(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("chronova listen address %q: %w", addr, err)
	}
	if host == "" || host == "localhost" {
		host = "127.0.0.1"
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("chronova listen address %q: the bridge serves loopback only (use 127.0.0.1)", addr)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, fmt.Errorf("chronova listen on %s: %w", addr, err)
	}
	return ln, nil
}

// ServeHTTP runs the bridge on ln until ctx is cancelled: Streamable HTTP MCP
// at /mcp, and GET /health answering {"status":"ok","version":…}. ln must be
// a loopback listener (see Listen). Without an API key it writes a warning to
// opts.Stderr and serves anyway; tool calls then return an error saying no
// key is configured. ServeHTTP closes ln.
func ServeHTTP(ctx context.Context, opts Options, ln net.Listener) error {
	defer ln.Close()
	if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		return fmt.Errorf("chronova: refusing to serve on %s: loopback only", ln.Addr())
	}
	c, creds, err := ResolveClient(opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.stderr(), "chronova: serving MCP on http://%s/mcp (%s)\n", ln.Addr(), creds)
	if !c.HasKey() {
		fmt.Fprintf(opts.stderr(), "chronova: warning: %v; serving anyway, tool calls will fail until a key is set\n", ErrNoKey)
	}
	logger := slog.New(slog.NewTextHandler(opts.stderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	mcpHTTP := server.NewStreamableHTTPServer(NewServer(c, opts.version()),
		server.WithEndpointPath("/mcp"),
		server.WithStreamableHTTPLogger(logger),
	)
	var endpoint http.Handler = mcpHTTP
	if opts.Protect != nil {
		endpoint = opts.Protect(mcpHTTP)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", endpoint)
	mux.HandleFunc("GET /health", healthHandler(opts.version()))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	select {
	case err := <-served:
		return fmt.Errorf("chronova http on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = mcpHTTP.Shutdown(shutdownCtx)
	if err := srv.Shutdown(shutdownCtx); err != nil {
		srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("chronova http on %s: %w", ln.Addr(), err)
	}
	return nil
}

func healthHandler(version string) http.HandlerFunc {
	body, _ := json.Marshal(map[string]string{"status": "ok", "version": version})
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}
}

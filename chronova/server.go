package chronova

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// ServerName is the MCP implementation name the bridge reports.
const ServerName = "chronova"

// Options configure the bridge when it runs alone (ServeStdio, ServeHTTP).
type Options struct {
	// Sources say where to look for the API key and URL.
	Sources
	// Version is reported by /health and as the MCP implementation version;
	// empty means "dev".
	Version string
	// Timeout bounds each Chronova API call; zero means DefaultTimeout.
	Timeout time.Duration
	// Stderr receives warnings and transport logs; nil means os.Stderr.
	// Nothing written there contains the API key.
	Stderr io.Writer
	// Protect, when set, wraps the /mcp handler of ServeHTTP: the hub's
	// rules for /mcp (Host, Origin, token), which chronicle chronova
	// --http applies. Nil serves /mcp to any local process.
	Protect func(http.Handler) http.Handler
}

// NewServer returns an MCP server named "chronova" that offers only the four
// Chronova tools, served by c.
func NewServer(c *Client, version string) *server.MCPServer {
	s := server.NewMCPServer(ServerName, version,
		server.WithToolCapabilities(false),
		server.WithRecovery(),
	)
	AddTools(s, c)
	return s
}

// ResolveClient resolves the key and URL from opts.Sources and returns a
// Client for them, with opts.Timeout applied, and the credentials (to report
// where the key came from). A missing key is not an error here: the Client
// then answers every call with a "no key configured" error.
func ResolveClient(opts Options) (*Client, Credentials, error) {
	creds, err := Resolve(opts.Sources)
	if err != nil {
		return nil, creds, err
	}
	c, err := NewClient(creds)
	if err != nil {
		return nil, creds, err
	}
	c.Timeout = opts.Timeout
	return c, creds, nil
}

// ServeStdio runs the bridge for one client on stdin and stdout until stdin
// ends or ctx is cancelled. Without an API key it returns ErrNoKey before
// reading anything, since a stdio client has no other way to be told. Only
// one ServeStdio may run at a time in a process (mcp-go keeps one stdio
// session per process).
func ServeStdio(ctx context.Context, opts Options, stdin io.Reader, stdout io.Writer) error {
	c, _, err := ResolveClient(opts)
	if err != nil {
		return err
	}
	if !c.HasKey() {
		return ErrNoKey
	}
	stdio := server.NewStdioServer(NewServer(c, opts.version()))
	stdio.SetErrorLogger(log.New(opts.stderr(), "chronova: ", log.LstdFlags))
	if err := stdio.Listen(ctx, stdin, stdout); err != nil && ctx.Err() == nil {
		return fmt.Errorf("chronova stdio: %w", err)
	}
	return nil
}

func (o Options) version() string {
	if o.Version != "" {
		return o.Version
	}
	return "dev"
}

func (o Options) stderr() io.Writer {
	if o.Stderr != nil {
		return o.Stderr
	}
	return os.Stderr
}

package era

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// sessionServer is a session-era MCP server with one tool and one prompt.
func sessionServer(t *testing.T) string {
	s := server.NewMCPServer("session-era", "1", server.WithToolCapabilities(false), server.WithPromptCapabilities(false))
	s.AddTool(mcp.NewTool("echo"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("echo"), nil
	})
	s.AddPrompt(mcp.NewPrompt("greet"), func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	return ts.URL + "/mcp"
}

func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang guard
	t.Cleanup(cancel)
	return ctx
}

// TestConnOpensOnceAndKnowsItsNames: the session era is opened on the
// first need only; what it lists goes on it, the rest statelessly.
func TestConnOpensOnceAndKnowsItsNames(t *testing.T) {
	url := sessionServer(t)
	opens := 0
	c := &Conn{Open: func(ctx context.Context) (*client.Client, error) {
		opens++
		cl, err := client.NewStreamableHttpClient(url)
		if err != nil {
			return nil, err
		}
		if err := cl.Start(ctx); err != nil {
			return nil, err
		}
		req := mcp.InitializeRequest{}
		req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
		if _, err := cl.Initialize(ctx, req); err != nil {
			return nil, err
		}
		return cl, nil
	}}
	t.Cleanup(c.Close)
	if c.Transport() != nil || c.StatelessOnly("tools/call", "other") {
		t.Fatal("before it is opened, the session era has a transport or sends something statelessly")
	}
	ctx := bounded(t)
	for range 2 {
		if _, err := c.Client(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if opens != 1 || c.Transport() == nil {
		t.Errorf("opened %d times (want 1), transport %v", opens, c.Transport())
	}
	for _, tc := range []struct {
		method, name string
		stateless    bool
	}{
		{"tools/call", "echo", false},
		{"tools/call", "other", true},
		{"prompts/get", "greet", false},
		{"prompts/get", "echo", true},
		{"resources/read", "file:///x", false},
	} {
		if got := c.StatelessOnly(tc.method, tc.name); got != tc.stateless {
			t.Errorf("%s %s: stateless only %v, want %v", tc.method, tc.name, got, tc.stateless)
		}
	}
}

// TestConnRefused: an upstream that refuses the session era is not asked
// again, and every request goes statelessly.
func TestConnRefused(t *testing.T) {
	opens := 0
	refused := errors.New("initialize: 400 this server speaks 2026-07-28 only")
	c := &Conn{Open: func(context.Context) (*client.Client, error) { opens++; return nil, refused }}
	for range 3 {
		if _, err := c.Client(bounded(t)); !errors.Is(err, refused) {
			t.Errorf("Client: %v, want the refusal", err)
		}
	}
	if opens != 1 || !c.StatelessOnly("tools/call", "echo") || !c.StatelessOnly("resources/read", "x") || c.Transport() != nil {
		t.Errorf("after a refusal: opened %d times, echo stateless %v", opens, c.StatelessOnly("tools/call", "echo"))
	}
	c.Close()
}

package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// modernTestServer is the Go test server with one more tool, which it
// offers to 2026-07-28 requests only, and which answers with the client
// capabilities the request declared.
func modernTestServer() *server.MCPServer {
	s := server.NewMCPServer("both-eras", "1.0.0", server.WithToolCapabilities(false),
		server.WithToolFilter(func(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
			if server.IsModernRequest(ctx) {
				return tools
			}
			out := tools[:0:0]
			for _, t := range tools {
				if t.Name != "caps" {
					out = append(out, t)
				}
			}
			return out
		}))
	addTestTools(s)
	s.AddTool(mcp.NewTool("caps"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		b, _ := json.Marshal(server.RequestProtocolInfoFromContext(ctx).ClientCapabilities)
		return mcp.NewToolResultText(string(b)), nil
	})
	return s
}

func httpSpec(name, url string) service.Service {
	return service.Service{Name: name, Enabled: true, Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(url)}}
}

// TestModernRevision: an HTTP upstream that speaks 2026-07-28 is listed in
// both revisions (what only that revision offers is marked so) and
// answers stateless requests, which carry the client's capabilities less
// what the service may not ask for; one that does not is told apart, and a
// JSON-RPC error of a stateless request is an rpc.Rejection.
func TestModernRevision(t *testing.T) {
	ts := httptest.NewServer(server.NewStreamableHTTPServer(modernTestServer()))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	spec := httpSpec("both", ts.URL+"/mcp")
	spec.RefuseSampling = true
	p, _ := newTestPool(t, PoolOptions{}, spec)
	ctx := testContext(t)
	u := p.Get("both")
	c, err := u.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := toolNamed(c, "caps"); !ok {
		t.Errorf("the catalog, listed statelessly, lacks caps: %v", c.Tools)
	}
	if u.ModernOnly("tools/call", "caps") {
		t.Error("caps is stateless only before the session era was opened")
	}
	// A session-era client's request opens the session era; what it does
	// not offer goes statelessly, as the hub's own client.
	if raw, err := u.Request(ctx, nil, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "on the session"}}); err != nil || !strings.Contains(string(raw), "on the session") {
		t.Errorf("a session-era call of echo: %s, %v", raw, err)
	}
	if !u.ModernOnly("tools/call", "caps") || u.ModernOnly("tools/call", "echo") || u.ModernOnly("prompts/get", "caps") {
		t.Errorf("after the session era opened: caps stateless only %v, echo %v", u.ModernOnly("tools/call", "caps"), u.ModernOnly("tools/call", "echo"))
	}
	if raw, err := u.Request(ctx, nil, "tools/call", map[string]any{"name": "caps"}); err != nil || !strings.Contains(string(raw), "elicitation") {
		t.Errorf("a session-era call of caps, sent statelessly with the hub's capabilities: %s, %v", raw, err)
	}

	caps := &mcp.ClientCapabilities{Sampling: &mcp.SamplingCapability{}, Elicitation: &mcp.ElicitationCapability{},
		Extensions: map[string]any{rpc.TasksExtension: map[string]any{}, "example.com/other": map[string]any{}}}
	raw, err := u.RequestModern(ctx, "tools/call", map[string]any{"name": "caps", "_meta": map[string]any{"progressToken": "p1"}}, caps)
	if err != nil {
		t.Fatal(err)
	}
	res, err := mcp.ParseCallToolResult(&raw)
	if err != nil {
		t.Fatal(err)
	}
	var got mcp.ClientCapabilities
	if err := json.Unmarshal([]byte(resultText(t, res)), &got); err != nil || got.Sampling != nil || got.Elicitation == nil {
		t.Errorf("the upstream saw the capabilities %s; want elicitation without sampling (allow_sampling = false)", resultText(t, res))
	}
	// The hub passes no tasks through to its clients (decision 0210): the
	// upstream is not told the client takes them, other extensions are.
	if _, tasks := got.Extensions[rpc.TasksExtension]; tasks || got.Extensions["example.com/other"] == nil {
		t.Errorf("the upstream saw the extensions %v; want example.com/other without %s", got.Extensions, rpc.TasksExtension)
	}
	if caps.Extensions[rpc.TasksExtension] == nil {
		t.Error("the client's own capabilities lost the tasks extension")
	}

	_, err = u.RequestModern(ctx, "tools/call", map[string]any{"name": "no_such_tool"}, nil)
	var rej *rpc.Rejection
	if !errors.As(err, &rej) {
		t.Errorf("a call of a tool the upstream does not have: %v, want a rpc.Rejection", err)
	}

	// An upstream of the session revisions only: a 2026-07-28 request to
	// it is not made; everything else works as before.
	legacy := httptest.NewServer(sessionOnly(server.NewStreamableHTTPServer(newTestServer())))
	t.Cleanup(func() { legacy.CloseClientConnections(); legacy.Close() })
	lp, _ := newTestPool(t, PoolOptions{}, httpSpec("old", legacy.URL+"/mcp"))
	old := lp.Get("old")
	if _, err := old.Catalog(ctx); err != nil || old.ModernOnly("tools/call", "echo") {
		t.Fatalf("the session-only upstream's catalog: %v, modern only %v", err, old.ModernOnly("tools/call", "echo"))
	}
	if _, err := old.RequestModern(ctx, "tools/call", map[string]any{"name": "echo"}, nil); !errors.Is(err, ErrNotModern) {
		t.Errorf("a 2026-07-28 request to a session-only upstream: %v, want ErrNotModern", err)
	}
	if r, err := old.CallTool(ctx, "echo", map[string]any{"message": "still"}); err != nil || resultText(t, r) != "still" {
		t.Errorf("a call to the session-only upstream: %v", err)
	}
}

// sessionOnly answers requests of the 2026-07-28 revision as a server of
// the session revisions does: it does not know them.
func sessionOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Protocol-Version") == mcp.ProtocolVersion20260728 {
			http.Error(w, "unsupported protocol version", http.StatusBadRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// TestModernOnlyUpstream: an upstream that speaks 2026-07-28 alone and
// refuses initialize is listed and called statelessly; it is sent
// initialize only when a session-era client's request needs the session
// era, once, and that request still gets its answer statelessly.
func TestModernOnlyUpstream(t *testing.T) {
	var initializes atomic.Int32
	inner := server.NewStreamableHTTPServer(modernTestServer())
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"method":"initialize"`)) {
			initializes.Add(1)
			http.Error(w, "this server speaks 2026-07-28 only", http.StatusBadRequest)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	p, _ := newTestPool(t, PoolOptions{}, httpSpec("modern", ts.URL+"/mcp"))
	ctx := testContext(t)
	u := p.Get("modern")
	c, err := u.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := toolNamed(c, "caps"); !ok {
		t.Errorf("the catalog lacks caps: %v", c.Tools)
	}
	if raw, err := u.RequestModern(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "stateless"}}, &mcp.ClientCapabilities{}); err != nil || !strings.Contains(string(raw), "stateless") {
		t.Errorf("a 2026-07-28 call: %s, %v", raw, err)
	}
	if n := initializes.Load(); n != 0 {
		t.Errorf("initialize was sent %d times for 2026-07-28 requests; want none", n)
	}
	for range 2 {
		if raw, err := u.Request(ctx, nil, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "for a session-era client"}}); err != nil || !strings.Contains(string(raw), "for a session-era client") {
			t.Errorf("a session-era client's call: %s, %v", raw, err)
		}
	}
	if n := initializes.Load(); n != 1 {
		t.Errorf("initialize was sent %d times; want once, for the first session-era request", n)
	}
	if !u.ModernOnly("tools/call", "echo") {
		t.Error("after initialize was refused, echo is not stateless only")
	}
}

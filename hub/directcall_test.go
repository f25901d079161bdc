package hub

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// stdioInitialized starts a stdio client of h and completes its handshake.
func stdioInitialized(t *testing.T, h *Hub) *stdioPeer {
	t.Helper()
	p := startStdio(t, h)
	p.send(t, initialize)
	p.until(t, `"id":1`)
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

// TestStdioResultAsTheUpstreamSentIt: a stdio client's tools/call is
// served beside mcp-go's server (decision 0239), and gets the tool's
// result member for member as the upstream sent it, as a Streamable HTTP
// client does (decision 0237) — mcp-go's types drop what they do not know.
func TestStdioResultAsTheUpstreamSentIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{{Name: "v", Enabled: true,
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(vendorUpstream(t))}}}, nil)
	p := stdioInitialized(t, newTestHub(t, path, Options{ListGrace: testGrace}))
	p.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"v__vendor"}}`)
	got := p.until(t, `"id":7`)
	if last := got[len(got)-1]; !strings.Contains(last, `"x-vendor":{"kept":true}`) || !strings.Contains(last, "as sent") {
		t.Errorf("the stdio client got %s; want the upstream's result with its x-vendor member", last)
	}
}

// TestStdioCallCancelled: while a call the hub serves beside mcp-go runs,
// the client's other requests are answered; its notifications/cancelled
// ends the call — the upstream's handler sees its context end — and the
// call gets no answer (MCP: a cancelled request has none); the session
// goes on.
func TestStdioCallCancelled(t *testing.T) {
	started, ended := make(chan struct{}, 1), make(chan struct{}, 1)
	srv := server.NewMCPServer("slow", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("wait"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		started <- struct{}{}
		select {
		case <-ctx.Done():
			ended <- struct{}{}
			return nil, ctx.Err()
		case <-time.After(hangGuard):
			return mcp.NewToolResultText("never cancelled"), nil
		}
	})
	srv.AddTool(mcp.NewTool("ping"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("pong"), nil
	})
	url := interceptedUpstream(t, srv, func(http.ResponseWriter, *http.Request, interceptedRequest) bool { return false })
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{{Name: "s", Enabled: true,
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(url)}}}, nil)
	p := stdioInitialized(t, newTestHub(t, path, Options{ListGrace: testGrace}))

	p.send(t, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"s__wait"}}`)
	waitfor.Receive(t, started, "the upstream's handler to start")
	// While the call runs, the client's next requests are read and
	// answered, mcp-go's (ping) as the hub's (decision 0240).
	p.send(t, `{"jsonrpc":"2.0","id":11,"method":"ping"}`)
	if got := p.until(t, `"id":11`); !strings.Contains(got[len(got)-1], `"result":{}`) {
		t.Errorf("a ping while a call runs: %s", got[len(got)-1])
	}
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9,"reason":"test"}}`)
	waitfor.Receive(t, ended, "the upstream's handler to see the cancellation")
	p.send(t, `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"s__ping"}}`)
	for _, line := range p.until(t, `"id":10`) {
		if strings.Contains(line, `"id":9`) {
			t.Errorf("the cancelled call was answered: %s", line)
		}
		if strings.Contains(line, `"id":10`) && !strings.Contains(line, "pong") {
			t.Errorf("the call after the cancellation: %s", line)
		}
	}
}

// TestCallArgumentsAsSent: a call's arguments reach the upstream as the
// client sent them, over Streamable HTTP (mcp-go's server serves the
// call) and over stdio (the hub serves it beside mcp-go, decision 0239):
// an integer above 2^53 keeps its digits, which a decode into float64 and
// an encode again lost.
func TestCallArgumentsAsSent(t *testing.T) {
	srv := server.NewMCPServer("args", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("echo"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("typed"), nil
	})
	url := interceptedUpstream(t, srv, func(w http.ResponseWriter, r *http.Request, req interceptedRequest) bool {
		if req.Method != "tools/call" {
			return false
		}
		var body struct {
			Params struct {
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &body)
		text, _ := json.Marshal(string(body.Params.Arguments))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"content":[{"type":"text","text":` + string(text) + `}]}}`))
		return true
	})
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{{Name: "a", Enabled: true,
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(url)}}}, nil)
	const big = "9007199254740993" // 2^53 + 1: a float64 holds ...992
	call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"a__echo","arguments":{"n":` + big + `}}}`

	t.Run("http", func(t *testing.T) {
		r := startHub(t, path)
		_, _, hdr := do(t, "POST", r.url+"/mcp", nil, initialize)
		h := map[string]string{"Mcp-Session-Id": hdr.Get("Mcp-Session-Id"), "MCP-Protocol-Version": "2025-11-25"}
		do(t, "POST", r.url+"/mcp", h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		if _, body, _ := do(t, "POST", r.url+"/mcp", h, call); !strings.Contains(body, big) {
			t.Errorf("the upstream got other arguments than the client sent: %s", responseOf(body))
		}
	})
	t.Run("stdio", func(t *testing.T) {
		p := stdioInitialized(t, newTestHub(t, path, Options{ListGrace: testGrace}))
		p.send(t, call)
		if got := p.until(t, `"id":5`); !strings.Contains(got[len(got)-1], big) {
			t.Errorf("the upstream got other arguments than the client sent: %s", got[len(got)-1])
		}
	})
}

// TestStdioUpstreamGetsArgumentsAsSent: a stdio upstream gets a call's
// arguments as the client sent them — the hub encodes the call's params
// once, the arguments spliced in, not scanned again by encoding/json
// (decision 0243) — on one line: a client's line breaks are taken out,
// nothing else is changed (spaces, an integer above 2^53, "<" and "&").
func TestStdioUpstreamGetsArgumentsAsSent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{testService("a", "args", "")}, nil)
	textOf := func(t *testing.T, answer string) string {
		t.Helper()
		var a struct {
			Result mcp.CallToolResult `json:"result"`
		}
		if err := json.Unmarshal([]byte(answer), &a); err != nil || len(a.Result.Content) != 1 {
			t.Fatalf("not a tool result: %s", answer)
		}
		return a.Result.Content[0].(mcp.TextContent).Text
	}

	t.Run("http", func(t *testing.T) {
		r := startHub(t, path)
		_, _, hdr := do(t, "POST", r.url+"/mcp", nil, initialize)
		h := map[string]string{"Mcp-Session-Id": hdr.Get("Mcp-Session-Id"), "MCP-Protocol-Version": "2025-11-25"}
		do(t, "POST", r.url+"/mcp", h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		call := "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"a__args\",\"arguments\":{\n  \"n\": 9007199254740993,\r\n  \"html\": \"<b>&</b>\"\n}}}"
		_, body, _ := do(t, "POST", r.url+"/mcp", h, call)
		if got, want := textOf(t, responseOf(body)), `{"n":9007199254740993,"html":"<b>&</b>"}`; got != want {
			t.Errorf("the upstream got the arguments %s; want %s", got, want)
		}
	})
	t.Run("stdio", func(t *testing.T) {
		p := stdioInitialized(t, newTestHub(t, path, Options{ListGrace: testGrace}))
		const args = `{ "n" : 9007199254740993, "html": "<b>&</b>" }`
		p.send(t, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"a__args","arguments":`+args+`}}`)
		got := p.until(t, `"id":5`)
		if text := textOf(t, got[len(got)-1]); text != args {
			t.Errorf("the upstream got the arguments %s; want them as sent, %s", text, args)
		}
	})
}

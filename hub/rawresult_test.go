package hub

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// vendorUpstream is an mcp-go server over Streamable HTTP whose tool
// vendor answers with a member of the server's own beside content, as a
// server ahead of mcp-go's types may (a wrapper writes the answer: mcp-go's
// handlers return typed results).
func vendorUpstream(t *testing.T) string {
	srv := server.NewMCPServer("vendor", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("vendor"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("typed"), nil
	})
	return interceptedUpstream(t, srv, func(w http.ResponseWriter, _ *http.Request, req interceptedRequest) bool {
		if req.Method != "tools/call" {
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"content":[{"type":"text","text":"as sent"}],"x-vendor":{"kept":true}}}`))
		return true
	})
}

// TestResultAsTheUpstreamSentIt: a session-era client over Streamable
// HTTP gets a tool's result member for member as the upstream sent it —
// not decoded into mcp-go's types and encoded again, which dropped what
// the types do not know (decision 0237) — and the inspector records it.
func TestResultAsTheUpstreamSentIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{{Name: "v", Enabled: true,
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(vendorUpstream(t))}}}, nil)
	r := serveHub(t, newTestHub(t, path, Options{ListGrace: testGrace}))
	c := connect(t, r.url, nil)
	resp, err := c.GetTransport().SendRequest(bounded(t), transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION,
		ID: mcp.NewRequestId(int64(7)), Method: "tools/call", Params: map[string]any{"name": "v__vendor"}})
	if err != nil || resp.Error != nil {
		t.Fatalf("tools/call v__vendor: %v %v", err, resp)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(resp.Result, &got); err != nil || string(got["x-vendor"]) != `{"kept":true}` || !strings.Contains(string(got["content"]), "as sent") {
		t.Errorf("the client got %s; want the upstream's result with its x-vendor member", resp.Result)
	}
	if log := getJSON(t, r.url+"/api/log"); !strings.Contains(log, "x-vendor") {
		t.Errorf("the inspector's log lacks the result the client got: %.800s", log)
	}
}

package hub

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// TestSessionCap: the hub holds at most hub { max_sessions } client
// sessions; one more initialize (or legacy stream) is refused with 503
// saying the limit and how to free or raise it, and a session that ends
// makes room.
func TestSessionCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	st, err := state.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Hub.MaxSessions = 2
	if err := st.Save(path); err != nil {
		t.Fatal(err)
	}
	r := startHub(t, path)
	var ids []string
	for range 2 {
		code, body, hdr := do(t, "POST", r.url+"/mcp", nil, initialize)
		if code != 200 || hdr.Get("Mcp-Session-Id") == "" {
			t.Fatalf("initialize under the limit: %d %s", code, body)
		}
		ids = append(ids, hdr.Get("Mcp-Session-Id"))
	}
	code, body, _ := do(t, "POST", r.url+"/mcp", nil, initialize)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "max_sessions = 2") || !strings.Contains(body, `"id":1`) {
		t.Fatalf("a third initialize: %d %s, want 503 naming the limit", code, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", r.url+"/sse", nil)
	resp, err := testHTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a legacy stream at the limit: %d, want 503", resp.StatusCode)
	}
	// The sessions that exist go on working.
	if code, body, _ := do(t, "POST", r.url+"/mcp", map[string]string{"Mcp-Session-Id": ids[0], "MCP-Protocol-Version": "2025-11-25"}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); code != 200 {
		t.Fatalf("a ping of a live session at the limit: %d %s", code, body)
	}
	if code, _, _ := do(t, "DELETE", r.url+"/mcp", map[string]string{"Mcp-Session-Id": ids[0], "MCP-Protocol-Version": "2025-11-25"}, ""); code != 200 {
		t.Fatalf("DELETE: %d", code)
	}
	if code, body, _ := do(t, "POST", r.url+"/mcp", nil, initialize); code != 200 {
		t.Fatalf("initialize once a session ended: %d %s", code, body)
	}
}

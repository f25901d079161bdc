package hub

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/service"
)

// TestFirstCatalogUpgradesNoSession checks that building the catalogue on
// a session's first call sends the sessions open then no notification (a
// call's stream carries its result alone, after the priming event of a
// resumable stream), and that initialize still declares that lists change.
func TestFirstCatalogUpgradesNoSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	r := startHub(t, path)

	var sessions []string
	for range 2 {
		resp := post(t, r.url, "", nil, initialize)
		body, _ := io.ReadAll(resp.Body)
		for _, kind := range []string{`"tools":{"listChanged":true}`, `"prompts":{"listChanged":true}`, `"listChanged":true,"subscribe":true`} {
			if !strings.Contains(string(body), kind) && !strings.Contains(string(body), strings.Replace(kind, `"listChanged":true,"subscribe":true`, `"subscribe":true,"listChanged":true`, 1)) {
				t.Errorf("initialize does not declare %s: %s", kind, body)
			}
		}
		sid := resp.Header.Get("Mcp-Session-Id")
		post(t, r.url, sid, map[string]string{"MCP-Protocol-Version": "2025-11-25"}, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		sessions = append(sessions, sid)
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"alpha__echo","arguments":{"text":"x"}}}`
	for round := range 2 {
		for i, sid := range sessions {
			resp := post(t, r.url, sid, map[string]string{"MCP-Protocol-Version": "2025-11-25"}, call)
			body, _ := io.ReadAll(resp.Body)
			if ct := resp.Header.Get("Content-Type"); !strings.Contains(string(body), `"result"`) || strings.Contains(string(body), `"method"`) {
				t.Errorf("call %d of session %d: %s %s, want its result and no notification", round, i, ct, body)
			}
		}
	}
}

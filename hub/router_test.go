package hub

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/service"
)

func do(t *testing.T, method, u string, headers map[string]string, body string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(method, u, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := testHTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if method == http.MethodGet && resp.StatusCode == 200 && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return resp.StatusCode, "", resp.Header
	}
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func initializeAs(version string) string {
	return strings.Replace(initialize, "2025-11-25", version, 1)
}

// TestHTTPEdges checks what a client gets at the edges of Streamable HTTP.
func TestHTTPEdges(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	r := startHub(t, path)
	mcpURL := r.url + "/mcp"

	if code, _, _ := do(t, "GET", mcpURL, nil, ""); code != 400 {
		t.Errorf("GET without a session: %d, want 400", code)
	}
	if code, _, _ := do(t, "GET", mcpURL, map[string]string{"Mcp-Session-Id": "mcp-session-nope"}, ""); code != 404 {
		t.Errorf("GET with an unknown session: %d, want 404", code)
	}
	if code, _, _ := do(t, "DELETE", mcpURL, map[string]string{"Mcp-Session-Id": "mcp-session-nope"}, ""); code != 404 {
		t.Errorf("DELETE of an unknown session: %d, want 404", code)
	}
	if code, _, _ := do(t, "DELETE", mcpURL, nil, ""); code != 400 {
		t.Errorf("DELETE without a session: %d, want 400", code)
	}
	if code, _, _ := do(t, "GET", mcpURL, map[string]string{"MCP-Protocol-Version": "2026-07-28"}, ""); code != 405 {
		t.Errorf("GET on 2026-07-28: %d, want 405", code)
	}
	code, body, _ := do(t, "POST", mcpURL, map[string]string{"MCP-Protocol-Version": "2099-01-01"}, `{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if code != 400 || !strings.Contains(body, `"jsonrpc":"2.0"`) || !strings.Contains(body, "2099-01-01") {
		t.Errorf("unsupported version: %d %s, want 400 with a JSON-RPC error naming it", code, body)
	}

	// Every revision initializes over Streamable HTTP; the session's GET
	// stream opens, and DELETE ends it.
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		code, body, hdr := do(t, "POST", mcpURL, nil, initializeAs(v))
		sid := hdr.Get("Mcp-Session-Id")
		if code != 200 || sid == "" || !strings.Contains(body, `"protocolVersion":"`+v+`"`) {
			t.Errorf("initialize %s: %d %s", v, code, body)
			continue
		}
		h := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": v}
		if code, body, _ := do(t, "POST", mcpURL, h, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); code != 200 || !strings.Contains(body, "alpha__echo") {
			t.Errorf("%s tools/list: %d %s", v, code, body)
		}
		if code, _, _ := do(t, "DELETE", mcpURL, h, ""); code != 200 {
			t.Errorf("%s DELETE: %d", v, code)
		}
		if code, _, _ := do(t, "POST", mcpURL, h, `{"jsonrpc":"2.0","id":3,"method":"ping"}`); code != 404 {
			t.Errorf("%s after DELETE: %d, want 404", v, code)
		}
	}

	// A session is bound to the endpoint it was made on.
	root := filepath.Join(dir, "proj")
	_, _, hdr := do(t, "POST", mcpURL+"?root="+url.QueryEscape(root), nil, initialize)
	sid := hdr.Get("Mcp-Session-Id")
	if code, _, _ := do(t, "POST", mcpURL, map[string]string{"Mcp-Session-Id": sid}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); code != 404 {
		t.Errorf("a session used on another endpoint: %d, want 404", code)
	}
	if code, _, _ := do(t, "POST", mcpURL+"?root="+url.QueryEscape(root), map[string]string{"Mcp-Session-Id": sid}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); code != 200 {
		t.Errorf("a session on its own endpoint: %d, want 200", code)
	}
	if code, _, _ := do(t, "POST", mcpURL+"?root=relative/dir", nil, initialize); code != 400 {
		t.Errorf("a relative root: %d, want 400", code)
	}
	if code, _, _ := do(t, "POST", r.url+"/mcp/profile/review", nil, initialize); code != 404 {
		t.Errorf("an undefined profile: %d, want 404", code)
	}

	// / serves only the console's own paths.
	if code, body, _ := do(t, "GET", r.url+"/", nil, ""); code != 200 || !strings.Contains(body, "chronicle hub") {
		t.Errorf("GET /: %d %s", code, body)
	}
	if code, _, _ := do(t, "GET", r.url+"/anything/else", nil, ""); code != 404 {
		t.Errorf("GET /anything/else: %d, want 404", code)
	}
}

// TestBatchesPerRevision: a 2025-03-26 batch is answered with an array, a
// later revision's with -32600.
func TestBatchesPerRevision(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	r := startHub(t, path)
	mcpURL := r.url + "/mcp"

	_, _, hdr := do(t, "POST", mcpURL, nil, initializeAs("2025-03-26"))
	h := map[string]string{"Mcp-Session-Id": hdr.Get("Mcp-Session-Id"), "MCP-Protocol-Version": "2025-03-26"}
	batch := `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"alpha__echo","arguments":{"text":"b"}}}]`
	code, body, _ := do(t, "POST", mcpURL, h, batch)
	var answers []map[string]any
	if err := json.Unmarshal([]byte(body), &answers); code != 200 || err != nil || len(answers) != 2 {
		t.Fatalf("2025-03-26 batch: %d %s", code, body)
	}
	if !strings.Contains(body, `"id":1`) || !strings.Contains(body, `"id":"two"`) || !strings.Contains(body, "alpha:b") {
		t.Errorf("batch answers: %s", body)
	}

	_, _, hdr = do(t, "POST", mcpURL, nil, initialize)
	h = map[string]string{"Mcp-Session-Id": hdr.Get("Mcp-Session-Id"), "MCP-Protocol-Version": "2025-11-25"}
	code, body, _ = do(t, "POST", mcpURL, h, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)
	if code != 400 || !strings.Contains(body, "-32600") {
		t.Errorf("2025-11-25 batch: %d %s, want 400 with -32600", code, body)
	}

	// JSON-RPC 2.0 §6: an empty batch is an invalid request (-32600), a
	// batch that is no JSON array a parse error (-32700).
	h["MCP-Protocol-Version"] = "2025-03-26"
	for body, want := range map[string]string{`[]`: "-32600", `[{"jsonrpc":`: "-32700"} {
		if code, got, _ := do(t, "POST", mcpURL, h, body); code != 400 || !strings.Contains(got, want) {
			t.Errorf("batch %s: %d %s, want 400 with %s", body, code, got, want)
		}
	}
}

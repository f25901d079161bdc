package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The floor does each duty it stands for: a request from elsewhere, or
// without the token, or on no session, is refused; a call goes upstream
// under the upstream's name and id, and comes back under the client's id;
// the request and the answer are kept for the inspector.
func TestFloorDoesAHubsDuties(t *testing.T) {
	if _, err := newFloor(""); err == nil {
		t.Error("a floor without a token: no error")
	}
	f, err := newFloor("secret-token")
	if err != nil {
		t.Fatal(err)
	}
	var sent []string
	ids := int64(6)
	upstream := func(id int64, method string, params json.RawMessage) []byte {
		sent = append(sent, method+" "+string(params))
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"pong"}]}}`+"\n", id)
	}
	srv := httptest.NewServer(f.handler(func() int64 { ids++; return ids }, upstream))
	defer srv.Close()
	f.host = strings.TrimPrefix(srv.URL, "http://")

	post := func(header map[string]string, body string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer secret-token")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	if resp, _ := post(map[string]string{"Authorization": "Bearer wrong"}, initialize); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong token: %s, want 401", resp.Status)
	}
	if resp, _ := post(map[string]string{"Origin": "https://evil.example"}, initialize); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a page's Origin: %s, want 403", resp.Status)
	}
	resp, _ := post(nil, initialize)
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %s, session %q", resp.Status, sid)
	}
	const call = `{"jsonrpc":"2.0","id":"c-9","method":"tools/call","params":{"name":"fast__echo","arguments":{"text":"hi"}}}`
	if resp, _ := post(map[string]string{"Mcp-Session-Id": "nobody", "MCP-Protocol-Version": "2025-11-25"}, call); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown session: %s, want 404", resp.Status)
	}
	resp, body := post(map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}, call)
	if resp.StatusCode != http.StatusOK || body != `{"jsonrpc":"2.0","id":"c-9","result":{"content":[{"type":"text","text":"pong"}]}}` {
		t.Errorf("the call: %s %s", resp.Status, body)
	}
	if len(sent) != 1 || sent[0] != `tools/call {"name":"echo","arguments":{"text":"hi"}}` {
		t.Errorf("sent upstream: %q, want the call under the upstream's name", sent)
	}
	_, body = post(map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"},
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"other__tool"}}`)
	if !strings.Contains(body, `"error"`) || len(sent) != 1 {
		t.Errorf("a tool not in the catalogue: %s, %d sent upstream", body, len(sent))
	}
	if f.log.seq != 3 || string(f.log.ring[1].message) != call || f.log.ring[2].direction != "out" {
		t.Errorf("the inspector's ring: %d records, first %q", f.log.seq, f.log.ring[1].message)
	}
	if len(f.sessions[sid].calls) != 0 {
		t.Errorf("calls left in flight: %v", f.sessions[sid].calls)
	}
}

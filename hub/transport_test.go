package hub

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/wire"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

func post(t *testing.T, url, session string, headers map[string]string, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := testHTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func TestTransportRules(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	r := startHub(t, path)

	resp := post(t, r.url, "", nil, initialize)
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || sid == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, sid)
	}
	if got := post(t, r.url, "no-such-session", nil, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`).StatusCode; got != 404 {
		t.Errorf("unknown session: %d, want 404", got)
	}
	if got := post(t, r.url, sid, map[string]string{"Origin": "https://evil.example"}, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`).StatusCode; got != 403 {
		t.Errorf("foreign Origin: %d, want 403", got)
	}
	req, _ := http.NewRequest("POST", r.url+"/mcp", strings.NewReader(initialize))
	req.Host = "evil.example"
	if resp, err := testHTTP.Do(req); err != nil || resp.StatusCode != 403 {
		t.Errorf("DNS-rebinding Host: %v %v, want 403", resp.StatusCode, err)
	}
	if got := post(t, r.url, sid, map[string]string{"MCP-Protocol-Version": "2024-01-01"}, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`).StatusCode; got != 400 {
		t.Errorf("unsupported protocol version: %d, want 400", got)
	}
	// Malformed JSON-RPC is an error answer, and the hub stays up.
	garbage := post(t, r.url, sid, nil, `{"jsonrpc":"2.0","id":9,"method":`)
	if b, _ := io.ReadAll(garbage.Body); garbage.StatusCode == 200 && !strings.Contains(string(b), `"error"`) {
		t.Errorf("malformed JSON-RPC: %d %s", garbage.StatusCode, b)
	}
	if got := post(t, r.url, sid, nil, `{"jsonrpc":"2.0","id":10,"method":"ping"}`).StatusCode; got != 200 {
		t.Errorf("after malformed JSON-RPC the session answers %d", got)
	}
	big := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"alpha__echo","arguments":{"text":"` + strings.Repeat("x", wire.MaxBodyBytes) + `"}}}`
	if got := post(t, r.url, sid, nil, big).StatusCode; got != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized body: %d, want 413", got)
	}
	// DELETE ends the session.
	del, _ := http.NewRequest("DELETE", r.url+"/mcp", nil)
	del.Header.Set("Mcp-Session-Id", sid)
	if resp, err := testHTTP.Do(del); err != nil || resp.StatusCode != 200 {
		t.Fatalf("DELETE: %v %v", resp.StatusCode, err)
	}
	if got := post(t, r.url, sid, nil, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`).StatusCode; got != 404 {
		t.Errorf("ended session: %d, want 404", got)
	}
	if body := getJSON(t, r.url+"/health"); !strings.Contains(body, `"status": "ok"`) || !strings.Contains(body, `"version": "test"`) {
		t.Errorf("/health: %s", body)
	}
}

func TestTokenRequiredWhenConfigured(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, nil, nil)
	st, _ := state.Load(path)
	st.Hub.Token = secretEnv("HUB_TEST_TOKEN")
	st.Save(path)
	t.Setenv("HUB_TEST_TOKEN", "tok-0123456789abcdef")
	r := startHub(t, path)
	if got := post(t, r.url, "", map[string]string{"Authorization": ""}, initialize).StatusCode; got != 401 {
		t.Errorf("no token: %d, want 401", got)
	}
	if got := post(t, r.url, "", map[string]string{"Authorization": "Bearer tok-0123456789abcdef"}, initialize).StatusCode; got != 200 {
		t.Errorf("right token: %d, want 200", got)
	}
}

// TestLiveReload rewrites the state while a client is connected: the new
// service appears, the session is told, and the unchanged upstream keeps its
// process.
func TestLiveReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	alpha := testService("alpha", "alpha", "")
	writeState(t, path, []service.Service{alpha}, nil)
	r := startHub(t, path)
	//lint:ignore SA1019 the standalone stream carries list_changed on the 2025 revisions
	c := connect(t, r.url, nil, transport.WithContinuousListening())
	notified := make(chan struct{}, 16)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationToolsListChanged) {
			notified <- struct{}{}
		}
	})
	toolNames(t, c)
	callText(t, c, "alpha__echo", map[string]any{"text": "1"})
	pidBefore := pidOf(r.hub, "alpha")

	writeState(t, path, []service.Service{alpha, testService("gamma", "gamma", "")}, nil)
	// Each list_changed the session gets means its list changed: wait for
	// the one that brings gamma.
	for {
		waitfor.Receive(t, notified, "a tools/list_changed that brings gamma")
		if _, ok := toolNames(t, c)["gamma__echo"]; ok {
			break
		}
	}
	if pid := pidOf(r.hub, "alpha"); pid == 0 || pid != pidBefore {
		t.Errorf("the unchanged upstream was restarted: pid %d → %d", pidBefore, pid)
	}
}

func pidOf(h *Hub, name string) int {
	for _, s := range h.pool.Status() {
		if s.Name == name {
			return s.PID
		}
	}
	return 0
}

// TestStdio serves one client over pipes, as a tool that spawns
// chronicle serve --stdio would; its scope is the working directory.
func TestStdio(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	project := filepath.Join(dir, "proj")
	writeState(t, path, []service.Service{testService("alpha", "alpha", ""), testService("beta", "beta", project)}, nil)
	h, err := New(Options{StatePath: path, Home: dir, Version: "test", Root: project, ListGrace: testGrace, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	p := startStdio(t, h)
	p.send(t, initialize)
	p.until(t, `"id":1`)
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	p.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if got := p.until(t, `"id":2`); !strings.Contains(got[len(got)-1], `"beta__echo"`) || !strings.Contains(got[len(got)-1], `"alpha__echo"`) {
		t.Fatalf("stdio tools/list (root inside beta's project): %s", got[len(got)-1])
	}
	p.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"beta__echo","arguments":{"text":"over stdio"}}}`)
	if got := p.until(t, `"id":3`); !strings.Contains(got[len(got)-1], "beta:over stdio") {
		t.Fatalf("stdio call: %s", got[len(got)-1])
	}
}

// TestIdleSessionsExpire: a session idle longer than its TTL is gone (404),
// and so is its entry.
func TestIdleSessionsExpire(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, nil, nil)
	h, err := New(Options{StatePath: path, Home: t.TempDir(), Version: "test", SessionIdleTTL: 300 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	h.sessions.Ended = make(chan string, 1)
	srv := httptest.NewServer(h.Handler())
	t.Cleanup(srv.Close)
	tok, err := h.EnsureToken()
	if err != nil {
		t.Fatal(err)
	}
	hubTokens.Store(srv.Listener.Addr().String(), tok)
	sid := post(t, srv.URL, "", nil, initialize).Header.Get("Mcp-Session-Id")
	if got := post(t, srv.URL, sid, nil, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).StatusCode; got != 200 {
		t.Fatalf("fresh session: %d", got)
	}
	// mcp-go's sweeper ends it within a second or two of its TTL.
	if ended := waitfor.Receive(t, h.sessions.Ended, "the idle session to be swept"); ended != sid {
		t.Fatalf("session %s ended, want %s", ended, sid)
	}
	if got := post(t, srv.URL, sid, nil, `{"jsonrpc":"2.0","id":3,"method":"ping"}`).StatusCode; got != 404 {
		t.Errorf("the expired session: %d, want 404", got)
	}
	if live, pending := h.clients.Size(); live != 0 || pending != 0 {
		t.Errorf("the expired session left %d live and %d pending entries", live, pending)
	}
}

// TestInitializeRootURI: a client that names its folder in initialize
// (rootUri, outside MCP) gets that folder's project services.
func TestInitializeRootURI(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	project := filepath.Join(dir, "proj")
	writeState(t, path, []service.Service{testService("beta", "beta", project)}, nil)
	r := startHub(t, path)
	init := strings.Replace(initialize, `"capabilities":{}`, `"capabilities":{},"rootUri":"file://`+project+`"`, 1)
	sid := post(t, r.url, "", nil, init).Header.Get("Mcp-Session-Id")
	resp := post(t, r.url, sid, nil, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), "beta__echo") {
		t.Fatalf("tools/list after initialize with rootUri: %s", b)
	}
	status := getJSON(t, r.url+"/api/status")
	if !strings.Contains(status, `"root": "`+project+`"`) {
		t.Errorf("the session and its root are not in the status:\n%s", status)
	}
}

package hub

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// capState writes a state of one service whose hub holds at most limit
// sessions.
func capState(t *testing.T, limit int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	st, err := state.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Hub.MaxSessions = limit
	if err := st.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

const initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// open starts a session as a client does: initialize, then
// notifications/initialized.
func open(t *testing.T, url string) string {
	t.Helper()
	code, body, hdr := do(t, "POST", url+"/mcp", nil, initialize)
	sid := hdr.Get("Mcp-Session-Id")
	if code != 200 || sid == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	if code, body, _ := do(t, "POST", url+"/mcp", map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}, initialized); code != 202 {
		t.Fatalf("notifications/initialized: %d %s", code, body)
	}
	return sid
}

func ping(t *testing.T, url, sid string) int {
	t.Helper()
	code, _, _ := do(t, "POST", url+"/mcp", map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	return code
}

// TestSessionCap: at hub { max_sessions } a new session is not refused:
// the hub ends the session idle longest, which its client then finds gone
// (404, so it starts again), and every other goes on working.
func TestSessionCap(t *testing.T) {
	r := startHub(t, capState(t, 2))
	a := open(t, r.url)
	b := open(t, r.url)
	if code := ping(t, r.url, b); code != 200 { // b is used after a: a is idle longest
		t.Fatalf("ping: %d", code)
	}
	c := open(t, r.url)
	if code := ping(t, r.url, a); code != 404 {
		t.Errorf("the session idle longest, after a new one at the limit: %d, want 404 (ended)", code)
	}
	for _, sid := range []string{b, c} {
		if code := ping(t, r.url, sid); code != 200 {
			t.Errorf("a session not idle longest, at the limit: %d", code)
		}
	}
	if live, pending := r.hub.clients.Size(); live+pending != 2 {
		t.Errorf("the hub holds %d live and %d pending sessions, want 2 in all", live, pending)
	}
}

// TestUnusedSessionsExpire: a session whose client sent nothing after
// initialize ends after Options.UnusedSessionTTL (seconds by default,
// not the idle timeout's half hour); one that said initialized stays.
func TestUnusedSessionsExpire(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, nil, nil)
	h, err := New(Options{StatePath: path, Home: t.TempDir(), Version: "test", UnusedSessionTTL: 200 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	h.sessions.Ended = make(chan string, 4)
	r := serveHub(t, h)
	kept := open(t, r.url)
	_, _, hdr := do(t, "POST", r.url+"/mcp", nil, initialize)
	unused := hdr.Get("Mcp-Session-Id")
	if ended := waitfor.Receive(t, h.sessions.Ended, "the unused session to expire"); ended != unused {
		t.Fatalf("session %s ended, want the unused %s", ended, unused)
	}
	if code := ping(t, r.url, unused); code != 404 {
		t.Errorf("the expired session: %d, want 404", code)
	}
	if code := ping(t, r.url, kept); code != 200 {
		t.Errorf("the session in use: %d, want 200", code)
	}
}

// TestInitializeFlood: 600 initializes at once from a local process that
// has the token (the worst case: one without it gets 401) fill the hub's
// 512 sessions over and over; a real client connecting afterwards still
// gets a session and lists the tools.
func TestInitializeFlood(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	r := startHub(t, path)
	var wg sync.WaitGroup
	var refused atomic.Int32
	sem := make(chan struct{}, 32)
	for range 600 {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			req, _ := http.NewRequest("POST", r.url+"/mcp", strings.NewReader(initialize))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := testHTTP.Do(req)
			if err != nil {
				refused.Add(1)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				refused.Add(1)
			}
		})
	}
	wg.Wait()
	if n := refused.Load(); n != 0 {
		t.Errorf("%d of 600 initializes were refused: the hub ends the idlest session instead", n)
	}
	if live, pending := r.hub.clients.Size(); live+pending > 512 {
		t.Errorf("the hub holds %d sessions, over its limit of 512", live+pending)
	}
	c := connect(t, r.url, nil)
	if tools := toolNames(t, c); len(tools) == 0 {
		t.Fatal("the client after the flood lists no tools")
	} else if _, ok := tools["alpha__echo"]; !ok {
		t.Errorf("the client after the flood: %v", fmt.Sprint(keys(tools)))
	}
}

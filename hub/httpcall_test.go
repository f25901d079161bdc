package hub

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// TestElicitationOnTheCallsStream: a session-era client that offered
// elicitation and holds no standalone GET stream is asked on the stream
// of the call that needs the answer — the hub leaves such a client's
// calls to mcp-go, which sends an elicitation there, where the hub's own
// route could only send it on the GET stream (decision 0241) — answers
// with a POST, and gets the tool's result, built from its answer, on the
// same stream.
func TestElicitationOnTheCallsStream(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{everythingService(t)}, nil)
	r := startHub(t, path)
	init := strings.Replace(initialize, `"capabilities":{}`, `"capabilities":{"elicitation":{}}`, 1)
	code, body, hdr := do(t, "POST", r.url+"/mcp", nil, init)
	sid := hdr.Get("Mcp-Session-Id")
	if code != 200 || sid == "" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	session := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	if code, body, _ := do(t, "POST", r.url+"/mcp", session, initialized); code != 202 {
		t.Fatalf("notifications/initialized: %d %s", code, body)
	}
	ctx := bounded(t)
	resp := postEvents(ctx, t, r.url+"/mcp", "2025-11-25", sid,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"everything__trigger-elicitation-request","arguments":{}}}`, nil)
	defer resp.Body.Close()
	asked, result := false, ""
	err := readEvents(bufio.NewReader(resp.Body), func(ev sseEvent) bool {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
		}
		if ev.data == "" || json.Unmarshal([]byte(ev.data), &m) != nil {
			return true
		}
		switch {
		case m.Method == "elicitation/create":
			asked = true
			answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"action":"accept","content":{"name":"Ada"}}}`, m.ID)
			if code, body, _ := do(t, "POST", r.url+"/mcp", session, answer); code != 202 {
				t.Errorf("the answer to the elicitation: %d %s", code, body)
			}
		case string(m.ID) == "2":
			result = string(m.Result)
			return false
		}
		return true
	})
	if !asked || !strings.Contains(result, "Ada") {
		t.Fatalf("asked on the call's stream: %v; result %q (%v)", asked, result, err)
	}
}

// TestActiveSessionsOutliveQuietOnes: the hub, not mcp-go, ends idle
// sessions (decision 0241), and neither a session whose client keeps
// calling tools (calls the hub serves beside mcp-go, which never sees them)
// nor one whose client only listens on its GET stream while messages come
// on it (log messages of those calls) is idle: both outlive four sessions
// that went quiet one after the other — over four idle times, longer than
// mcp-go's sweeper takes to look — and both go on being answered.
func TestActiveSessionsOutliveQuietOnes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{testService("rec", "recorder", "")}, nil)
	const idle = 300 * time.Millisecond
	h, err := New(Options{StatePath: path, Home: t.TempDir(), Version: "test", SessionIdleTTL: idle, ListGrace: testGrace,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	h.sessions.Ended = make(chan string, 4)
	r := serveHub(t, h)
	busy, listening, quiet := open(t, r.url), open(t, r.url), open(t, r.url)

	ctx := bounded(t)
	get, _ := http.NewRequestWithContext(ctx, http.MethodGet, r.url+"/mcp", nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set("MCP-Protocol-Version", "2025-11-25")
	get.Header.Set("Mcp-Session-Id", listening)
	stream, err := testHTTP.Do(withToken(get))
	if err != nil {
		t.Fatal(err)
	}
	heard := make(chan struct{}, 1)
	go func() {
		_ = readEvents(bufio.NewReader(stream.Body), func(ev sseEvent) bool {
			if strings.Contains(ev.data, "notifications/message") {
				select {
				case heard <- struct{}{}:
				default:
				}
			}
			return true
		})
	}()
	t.Cleanup(func() { stream.Body.Close() })

	id := 2
	call := func() {
		t.Helper()
		code, body, _ := do(t, "POST", r.url+"/mcp", map[string]string{"Mcp-Session-Id": busy, "MCP-Protocol-Version": "2025-11-25"},
			fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"rec__logs"}}`, id))
		if code != 200 || !strings.Contains(body, "logged") {
			t.Fatalf("call %d of the busy session: %d %s", id, code, body)
		}
		id++
	}
	deadline := time.Now().Add(hangGuard)
	for ended := 0; ended < 4; {
		call()
		select {
		case sid := <-h.sessions.Ended:
			if sid != quiet {
				t.Fatalf("session %s ended, want the quiet one %s (busy %s, listening %s)", sid, quiet, busy, listening)
			}
			ended++
			quiet = open(t, r.url)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d quiet sessions ended, want 4", ended)
		}
	}
	call()
	waitfor.Receive(t, heard, "a log message on the listening session's GET stream")
	if code := ping(t, r.url, listening); code != 200 {
		t.Errorf("the listening session after four quiet ones ended: %d", code)
	}
}

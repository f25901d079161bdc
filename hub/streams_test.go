package hub

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/service"
)

// An sseEvent is one event of a stream as a client reads it.
type sseEvent struct {
	id, retry, data string
}

// readEvents reads the SSE events of body until it ends, handing each to
// seen; seen returns false to stop reading.
func readEvents(body *bufio.Reader, seen func(sseEvent) bool) error {
	var ev sseEvent
	for {
		line, err := body.ReadString('\n')
		if err != nil {
			return err
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "":
			if ev != (sseEvent{}) && !seen(ev) {
				return nil
			}
			ev = sseEvent{}
		case strings.HasPrefix(line, "id:"):
			ev.id = strings.TrimSpace(line[3:])
		case strings.HasPrefix(line, "retry:"):
			ev.retry = strings.TrimSpace(line[6:])
		case strings.HasPrefix(line, "data:"):
			ev.data += strings.TrimSpace(line[5:])
		}
	}
}

// postEvents sends a JSON-RPC message as a client of revision version (and
// session sid, if any) that takes an event stream, within ctx.
func postEvents(ctx context.Context, t *testing.T, url, version, sid, body string, header map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", version)
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := testHTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// openEventSession initializes a 2025-11-25 session at url as a client
// that takes an event stream, and returns its id.
func openEventSession(ctx context.Context, t *testing.T, url string) string {
	t.Helper()
	resp := postEvents(ctx, t, url, "2025-11-25", "", initialize, nil)
	sid := resp.Header.Get("Mcp-Session-Id")
	resp.Body.Close()
	if sid == "" {
		t.Fatal("no session id")
	}
	postEvents(ctx, t, url, "2025-11-25", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil).Body.Close()
	return sid
}

// progressOnItsStream calls the recorder's progress tool with a token of
// its own and n notifications, and checks that all n arrive on the
// request's stream, in order and before the response, and nothing after it.
func progressOnItsStream(ctx context.Context, t *testing.T, url, version, sid string, run, n int, header map[string]string) {
	t.Helper()
	token := fmt.Sprintf("run-%d", run)
	meta := fmt.Sprintf(`"progressToken":%q`, token)
	if version == "2026-07-28" {
		meta += `,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}`
	}
	resp := postEvents(ctx, t, url, version, sid, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"rec__progress","arguments":{"count":%d},"_meta":{%s}}}`, run, n, meta), header)
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("run %d: %d %s, want an event stream", run, resp.StatusCode, ct)
	}
	next, got, answered := 1, 0, false
	err := readEvents(bufio.NewReader(resp.Body), func(ev sseEvent) bool {
		if ev.data == "" {
			return true // a priming event
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Token    string  `json:"progressToken"`
				Progress float64 `json:"progress"`
			} `json:"params"`
		}
		if err := json.Unmarshal([]byte(ev.data), &m); err != nil {
			t.Errorf("run %d: an event that is no JSON-RPC message: %s", run, ev.data)
			return false
		}
		switch {
		case answered:
			t.Errorf("run %d: an event after the response: %s", run, ev.data)
		case m.Method == "notifications/progress":
			if m.Params.Token != token || m.Params.Progress != float64(next) {
				t.Errorf("run %d: progress %v of %q, want %d of %q", run, m.Params.Progress, m.Params.Token, next, token)
			}
			next = int(m.Params.Progress) + 1
			got++
		case m.Method == "" && string(m.ID) == fmt.Sprint(run):
			answered = true
		}
		return true
	})
	if ctx.Err() != nil {
		t.Fatalf("run %d: the stream did not end in time (%d of %d progress notifications, answered: %v)", run, got, n, answered)
	}
	if !answered || got != n {
		t.Errorf("run %d: %d of %d progress notifications on the request's stream, answered: %v (%v)", run, got, n, answered, err)
	}
}

// TestProgressOnTheRequestStream calls a tool that reports progress many
// times over, in both eras, and checks that every notification arrives on
// the request's own stream, in order, before the response. In the session
// era the client holds the standalone GET stream open meanwhile: mcp-go
// feeds it from the same channel as the request's stream, and used to
// hand it some of the progress (after the response, for the client).
func TestProgressOnTheRequestStream(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("rec", "recorder", "")}, nil)
	r := startHub(t, path)
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	const runs, n = 25, 20

	t.Run("2025-11-25", func(t *testing.T) {
		sid := openEventSession(ctx, t, r.url+"/mcp")
		get, _ := http.NewRequestWithContext(ctx, http.MethodGet, r.url+"/mcp", nil)
		get.Header.Set("Accept", "text/event-stream")
		get.Header.Set("MCP-Protocol-Version", "2025-11-25")
		get.Header.Set("Mcp-Session-Id", sid)
		stream, err := testHTTP.Do(get)
		if err != nil {
			t.Fatal(err)
		}
		var strayMu sync.Mutex
		var stray []string
		standalone := make(chan struct{})
		go func() {
			defer close(standalone)
			_ = readEvents(bufio.NewReader(stream.Body), func(ev sseEvent) bool {
				if strings.Contains(ev.data, "notifications/progress") {
					strayMu.Lock()
					stray = append(stray, ev.data)
					strayMu.Unlock()
				}
				return true
			})
		}()
		for run := 1; run <= runs; run++ {
			progressOnItsStream(ctx, t, r.url+"/mcp", "2025-11-25", sid, run, n, nil)
		}
		stream.Body.Close()
		<-standalone
		if len(stray) > 0 {
			t.Errorf("%d progress notifications came on the standalone GET stream, e.g. %s", len(stray), stray[0])
		}
	})
	t.Run("2026-07-28", func(t *testing.T) {
		for run := 1; run <= runs; run++ {
			progressOnItsStream(ctx, t, r.url+"/mcp", "2026-07-28", "", run, n, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "rec__progress"})
		}
	})
}

// TestAPlainAnswerIsJSON: a session-era call the hub serves whose upstream
// sends nothing before its result is answered with a JSON body, as the
// forwarder and mcp-go answer (decision 0246): no event of its stream, not
// even the priming event, would have reached the client before the result,
// so there was nothing to resume. A call with progress is an event stream
// that begins with the priming event; a client that takes only an event
// stream gets one either way.
func TestAPlainAnswerIsJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{testService("rec", "recorder", "")}, nil)
	r := startHub(t, path)
	ctx := bounded(t)
	sid := openEventSession(ctx, t, r.url+"/mcp")

	call := func(id int, meta string, header map[string]string) (string, []byte) {
		t.Helper()
		resp := postEvents(ctx, t, r.url+"/mcp", "2025-11-25", sid, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"rec__progress","arguments":{"count":2}%s}}`, id, meta), header)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("call %d: %d %s (%v)", id, resp.StatusCode, body, err)
		}
		return resp.Header.Get("Content-Type"), body
	}

	ct, body := call(1, "", nil)
	var m struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if !strings.HasPrefix(ct, "application/json") || json.Unmarshal(body, &m) != nil || m.ID != 1 || len(m.Result) == 0 {
		t.Errorf("a call nothing came before the result of: %s %s, want a JSON body answering id 1", ct, body)
	}

	ct, body = call(2, `,"_meta":{"progressToken":"p"}`, nil)
	var events []sseEvent
	_ = readEvents(bufio.NewReader(strings.NewReader(string(body))), func(ev sseEvent) bool { events = append(events, ev); return true })
	if !strings.HasPrefix(ct, "text/event-stream") || len(events) != 4 || events[0].data != "" || events[0].id == "" || events[0].retry == "" ||
		!strings.Contains(events[1].data, "notifications/progress") || !strings.Contains(events[3].data, `"id":2`) {
		t.Errorf("a call with progress: %s %q, want an event stream: the priming event, two progress notifications, the result", ct, body)
	}

	ct, body = call(3, "", map[string]string{"Accept": "text/event-stream"})
	events = events[:0]
	_ = readEvents(bufio.NewReader(strings.NewReader(string(body))), func(ev sseEvent) bool { events = append(events, ev); return true })
	if !strings.HasPrefix(ct, "text/event-stream") || len(events) != 2 || events[0].data != "" || !strings.Contains(events[1].data, `"id":3`) {
		t.Errorf("a call from a client that takes only an event stream: %s %q, want the priming event and the result", ct, body)
	}
}

package hub

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// TestOutboundFilter checks the decisions of a session's filter: no
// list_changed before the session's first list or when its list did not
// change, and no response to a request the client cancelled.
func TestOutboundFilter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	project := filepath.Join(dir, "p")
	writeState(t, path, []service.Service{testService("alpha", "alpha", ""), testService("beta", "beta", project)}, nil)
	h := newTestHub(t, path, Options{ListGrace: testGrace})
	defer h.Close()
	h.lister.Catalog(context.Background())
	waitCatalog(t, h, func(c *catalog.Catalog) bool { return c.Tools["alpha__echo"] != nil && c.Tools["beta__echo"] != nil })

	s1, s2 := h.clients.Generate(), h.clients.Generate()
	changed := []byte(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	if h.lists.Keep(s1, changed) {
		t.Error("list_changed reached a session that never listed")
	}
	h.clients.Get(s1).Listed("tools", h.lists.ListHash("tools", catalog.Where{}))
	if h.lists.Keep(s1, changed) {
		t.Error("list_changed reached a session whose list did not change")
	}
	// A change it cannot see (a project's service) is not news to it
	// either; a change to a global service is.
	h.lister.Invalidate("test", "beta")
	h.clients.Get(s1).Listed("tools", "an older list")
	if !h.lists.Keep(s1, changed) {
		t.Error("list_changed did not reach a session whose list changed")
	}

	call := wire.Peek([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"alpha__echo"}}`))
	cancel := wire.Peek([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`))
	resp := []byte(`{"jsonrpc":"2.0","id":7,"result":{}}`)
	relay.NoteRequest(h.clients.Get(s1), call)
	relay.NoteRequest(h.clients.Get(s2), call)
	relay.NoteRequest(h.clients.Get(s1), cancel)
	if h.lists.Keep(s1, resp) {
		t.Error("the response to a cancelled request was sent")
	}
	if !h.lists.Keep(s2, resp) {
		t.Error("a cancel in one session dropped the response in another")
	}
	// A cancel that comes after the response is forgotten: the next
	// request with the same id is answered.
	relay.NoteRequest(h.clients.Get(s1), cancel)
	relay.NoteRequest(h.clients.Get(s1), call)
	if !h.lists.Keep(s1, resp) {
		t.Error("a late cancel dropped the response to the next request with its id")
	}
	if n := h.clients.Get(s1).InFlight(); n != 0 {
		t.Errorf("%d requests still in flight after every one was answered", n)
	}
	if !h.lists.Keep(s1, []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`)) {
		t.Error("another notification was dropped")
	}
}

// TestToolListPages: above 500 tools the list comes in pages with a stable
// cursor; a cursor that does not decode is -32602.
func TestToolListPages(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	big := testService("big", "recorder", "")
	big.Env[recorderToolsEnv] = secret.Literal("1203")
	writeState(t, path, []service.Service{big}, nil)
	r := startHub(t, path)

	// Raw requests: mcp-go's client follows cursors by itself.
	_, _, hdr := do(t, "POST", r.url+"/mcp", nil, initialize)
	h := map[string]string{"Mcp-Session-Id": hdr.Get("Mcp-Session-Id"), "MCP-Protocol-Version": "2025-11-25"}
	list := func(cursor string) (names []string, next string, body string) {
		t.Helper()
		params := `{}`
		if cursor != "" {
			params = `{"cursor":` + strconv.Quote(cursor) + `}`
		}
		_, body, _ = do(t, "POST", r.url+"/mcp", h, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":`+params+`}`)
		body = responseOf(body)
		var res struct {
			Result struct {
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"`
				NextCursor string `json:"nextCursor"`
			} `json:"result"`
		}
		_ = json.Unmarshal([]byte(body), &res)
		for _, tl := range res.Result.Tools {
			names = append(names, tl.Name)
		}
		return names, res.Result.NextCursor, body
	}
	var all []string
	cursor, pages := "", 0
	for {
		names, next, body := list(cursor)
		if len(names) == 0 {
			t.Fatalf("an empty page: %s", body)
		}
		pages++
		all = append(all, names...)
		if next == "" {
			break
		}
		if again, _, _ := list(cursor); strings.Join(again, ",") != strings.Join(names, ",") {
			t.Errorf("the same cursor gave another page")
		}
		cursor = next
	}
	if pages != 3 || len(all) != 1206 || all[0] != "big__logs" || all[1205] != "big__t1202" {
		t.Errorf("%d pages, %d tools (%s … %s)", pages, len(all), all[0], all[len(all)-1])
	}
	if _, _, body := list("%%% not a cursor"); !strings.Contains(body, "-32602") {
		t.Errorf("a bad cursor: %s, want -32602", body)
	}
}

// responseOf returns the JSON-RPC response in a body, which is either the
// response or an SSE stream that ends with it.
func responseOf(body string) string {
	for _, line := range strings.Split(body, "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(data, `"id":`) {
			return data
		}
	}
	return body
}

// A stdioPeer is a raw client of serve --stdio: it writes lines and reads
// what the hub writes, each read bounded by hangGuard.
type stdioPeer struct {
	in        *io.PipeWriter
	lines     chan string
	done      chan error
	closeOnce sync.Once
}

// startStdio serves h to a raw stdio client until the test ends.
func startStdio(t *testing.T, h *Hub) *stdioPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &stdioPeer{in: inW, lines: make(chan string, 64), done: make(chan error, 1)}
	go func() { p.done <- h.ServeStdio(context.Background(), inR, outW); outW.Close() }()
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() { p.close(t) })
	return p
}

func (p *stdioPeer) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// until returns the lines the hub writes up to and including the first
// that contains want.
func (p *stdioPeer) until(t *testing.T, want string) []string {
	t.Helper()
	var got []string
	for {
		var line string
		var ok bool
		select {
		case line, ok = <-p.lines:
		case <-time.After(hangGuard):
			t.Fatalf("no line with %s within %s; the hub wrote:\n%s", want, hangGuard, strings.Join(got, "\n"))
		}
		if !ok {
			t.Fatalf("the hub's output ended before a line with %s; it wrote:\n%s", want, strings.Join(got, "\n"))
		}
		got = append(got, line)
		if strings.Contains(line, want) {
			return got
		}
	}
}

// close ends the client's input and waits for serve --stdio to return;
// after the first, it does nothing.
func (p *stdioPeer) close(t *testing.T) {
	t.Helper()
	p.closeOnce.Do(func() {
		p.in.Close()
		if err := waitfor.Receive(t, p.done, "serve --stdio to return after its input ended"); err != nil {
			t.Errorf("serve --stdio: %v", err)
		}
	})
}

// TestCancelAfterResponse: a notifications/cancelled that arrives after the
// response it names (the call finished first) must not cost the client the
// response to its next request with the same id, over HTTP or stdio.
func TestCancelAfterResponse(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"alpha__echo","arguments":{"text":"hi"}}}`
	cancel := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"too late"}}`

	t.Run("http", func(t *testing.T) {
		r := startHub(t, path)
		_, _, hdr := do(t, "POST", r.url+"/mcp", nil, initialize)
		h := map[string]string{"Mcp-Session-Id": hdr.Get("Mcp-Session-Id"), "MCP-Protocol-Version": "2025-11-25"}
		do(t, "POST", r.url+"/mcp", h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for round := range 3 {
			code, body, _ := do(t, "POST", r.url+"/mcp", h, call)
			if code != 200 || !strings.Contains(responseOf(body), `"id":5`) || !strings.Contains(body, "alpha:hi") {
				t.Fatalf("call %d with the id a late cancel named: %d %q, want its result", round+1, code, body)
			}
			if code, body, _ := do(t, "POST", r.url+"/mcp", h, cancel); code != 202 {
				t.Fatalf("the late cancel: %d %s", code, body)
			}
		}
	})
	t.Run("stdio", func(t *testing.T) {
		p := startStdio(t, newTestHub(t, path, Options{ListGrace: testGrace}))
		p.send(t, initialize)
		p.until(t, `"id":1`)
		p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for round := range 3 {
			p.send(t, call)
			if got := p.until(t, `"id":5`); !strings.Contains(got[len(got)-1], "alpha:hi") {
				t.Fatalf("call %d with the id a late cancel named: %s, want its result", round+1, got[len(got)-1])
			}
			p.send(t, cancel)
		}
	})
}

// A fakeSession stands in for mcp-go's session of a transport.
type fakeSession string

func (fakeSession) Initialize()                                         {}
func (fakeSession) Initialized() bool                                   { return true }
func (fakeSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return nil }
func (s fakeSession) SessionID() string                                 { return string(s) }

// TestSessionRegistry checks the registry's lifetimes: a generated id is
// pending until registered, live until unregistered; an id terminated
// before mcp-go registered it stays ended; a transport's own id (HTTP+SSE,
// stdio) gets an entry when registered.
func TestSessionRegistry(t *testing.T) {
	s := session.NewRegistry()
	ctx := context.Background()
	id := s.Generate()
	if ok, err := s.Validate(id); ok || err != nil {
		t.Fatalf("a generated id: terminated %v, %v", ok, err)
	}
	if cs := s.Register(ctx, fakeSession(id)); cs == nil || cs.Info().Started.IsZero() {
		t.Fatal("the registration of a generated id made no live session")
	}
	if live, pending := s.Size(); live != 1 || pending != 0 {
		t.Errorf("after registration: %d live, %d pending", live, pending)
	}
	s.Remove(id)
	if _, err := s.Validate(id); err == nil {
		t.Error("an unregistered id is still valid")
	}

	raced := s.Generate()
	if _, err := s.Terminate(raced); err != nil {
		t.Fatal(err)
	}
	if cs := s.Register(ctx, fakeSession(raced)); cs != nil {
		t.Error("a session terminated before its registration came back to life")
	}
	if _, err := s.Validate(raced); err == nil {
		t.Error("a terminated id is valid again")
	}

	if cs := s.Register(ctx, fakeSession("2f1c…-sse")); cs == nil {
		t.Error("an HTTP+SSE session got no entry")
	}
	if _, err := s.Terminate("made-up"); err == nil {
		t.Error("terminating an unknown id succeeded")
	}
	if live, pending := s.Size(); live != 1 || pending != 0 {
		t.Errorf("at the end: %d live, %d pending, want the SSE session alone", live, pending)
	}
}

package transport

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// TestStreamPollAndResume plays SEP-1699 polling on a stream of the hub's:
// it begins with a priming event (an id, a retry field, no data); when the
// request's upstream ends its stream mid-call (Poll), the client's
// connection ends before the response, and a GET with the last event id
// gets the progress sent meanwhile and the response, each once.
func TestStreamPollAndResume(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	h := New(Core{Sessions: session.NewRegistry(), Context: ctx, Go: func(fn func()) { go fn() }, Run: func(fn func()) { fn() },
		Keep: func(*session.Session, wire.Message) bool { return true }})
	release := make(chan struct{})
	// mcp-go's part: the call polls at once, reports progress while the
	// client is away, and answers when released.
	mcpgo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := session.StreamOf(r.Context())
		if !st.Poll() {
			t.Error("a resumable stream refused to poll")
		}
		<-release
		st.Notify("notifications/progress", map[string]any{"progressToken": "p", "progress": 1})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"))
	})
	const sid = "s1"
	mux := http.NewServeMux()
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, r *http.Request) {
		st := h.newStream(sid, []byte("1"), true)
		st.plain = true // a stream that begins still begins with its priming event
		h.serveStream(mcpgo, w, r, st, func() {})
	})
	mux.HandleFunc("GET /mcp", func(w http.ResponseWriter, r *http.Request) {
		if !h.serveResume(w, r, sid, r.Header.Get("Last-Event-ID")) {
			http.Error(w, "not a stream of the hub's", http.StatusBadRequest)
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`))
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var first []sseEvent
	readSSE(t, resp, func(ev sseEvent) { first = append(first, ev) })
	if len(first) != 1 || first[0].id == "" || first[0].retry == "" || first[0].data != "" {
		t.Fatalf("the polled stream carried %+v, want one priming event (id, retry, no data)", first)
	}

	get, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/mcp", nil)
	get.Header.Set("Last-Event-ID", first[0].id)
	close(release)
	resp, err = srv.Client().Do(get)
	if err != nil {
		t.Fatal(err)
	}
	var resumed []string
	readSSE(t, resp, func(ev sseEvent) {
		if ev.id == "" {
			t.Errorf("an event without an id on a resumable stream: %+v", ev)
		}
		resumed = append(resumed, ev.data)
	})
	if len(resumed) != 2 || !strings.Contains(resumed[0], "notifications/progress") || !strings.Contains(resumed[1], `"result"`) {
		t.Errorf("the resumed stream carried %q, want the progress, then the response", resumed)
	}
}

// TestPlainAnswerNotStored: the answer of a call the hub serves
// (requestStream.plain) that nothing came before goes as a JSON body, and
// the event store keeps nothing of it: no id of the stream ever reached
// the client, so nothing of it could be resumed.
func TestPlainAnswerNotStored(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	h := New(Core{Sessions: session.NewRegistry(), Context: ctx, Go: func(fn func()) { go fn() }, Run: func(fn func()) { fn() },
		Keep: func(*session.Session, wire.Message) bool { return true }})
	const sid = "s1"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := h.newStream(sid, []byte("1"), true)
		st.plain = true
		h.serveResumable(w, r, st, func() {
			st.Header().Set("Content-Type", "application/json")
			_, _ = st.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
		}, func() {}, true)
	}))
	defer srv.Close()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`))
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "application/json" || string(body) != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("%d %s %q, want the answer as a JSON body", resp.StatusCode, ct, body)
	}
	if key, ok := h.events.StreamOf(sid, "1"); ok {
		t.Errorf("the event store holds event 1 of stream %s", key)
	}
}

type sseEvent struct{ id, retry, data string }

// readSSE reads resp's events until the stream ends.
func readSSE(t *testing.T, resp *http.Response, seen func(sseEvent)) {
	t.Helper()
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("%d %s, want an event stream", resp.StatusCode, ct)
	}
	sc := bufio.NewScanner(resp.Body)
	var ev sseEvent
	began := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" && began:
			seen(ev)
			ev, began = sseEvent{}, false
		case strings.HasPrefix(line, "id:"):
			ev.id, began = strings.TrimSpace(line[3:]), true
		case strings.HasPrefix(line, "retry:"):
			ev.retry, began = strings.TrimSpace(line[6:]), true
		case strings.HasPrefix(line, "data:"):
			ev.data, began = ev.data+strings.TrimSpace(line[5:]), true
		}
	}
}

// TestCallDetachedOnlyWhenItMayPoll: a call the hub serves in place of
// mcp-go (Core.Call) runs on the connection's goroutine (Core.Run) unless
// its service may end the call's stream before the answer (detach). A
// detached call that polls ends the client's connection at once, with the
// priming event, while the call goes on, and the answer waits for the
// client to resume: from that event on a client can find the stream, and
// a stream that sent nothing is not kept where a client could.
func TestCallDetachedOnlyWhenItMayPoll(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	for _, detach := range []bool{false, true} {
		release := make(chan struct{})
		var ran, detached int
		resumable := make(chan int, 1) // the streams a client could resume during the call
		var h *Transport
		core := Core{Sessions: session.NewRegistry(), Context: ctx,
			Go:   func(fn func()) { detached++; go fn() },
			Run:  func(fn func()) { ran++; fn() },
			Keep: func(*session.Session, wire.Message) bool { return true }}
		core.Call = func(ctx context.Context, _ *session.Session, _ wire.Message) (func() (json.RawMessage, *session.RPCError), bool) {
			return func() (json.RawMessage, *session.RPCError) {
				if detach {
					session.StreamOf(ctx).Poll() // the service ended its stream of the call
				}
				resumable <- streamsOf(h)
				if detach {
					<-release
				}
				return json.RawMessage(`{"content":[]}`), nil
			}, detach
		}
		h = New(core)
		sid := h.core.Sessions.Generate()
		cs := h.core.Sessions.Get(sid)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			st := h.newStream(sid, []byte("1"), true)
			if !h.serveCall(r.Context(), w, r, cs, wire.Peek([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`)), st, func() {}) {
				t.Error("serveCall left the call to mcp-go")
			}
		}))
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(`{}`))
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		// A stream is found by a resuming client once it sent an event
		// (its priming event), and only then.
		select {
		case n := <-resumable:
			if detach && n != 1 || !detach && n != 0 {
				t.Errorf("detach %v: %d streams a client could resume during the call, want %d", detach, n, map[bool]int{false: 0, true: 1}[detach])
			}
		case <-ctx.Done():
			t.Fatal("the call never ran")
		}
		close(release)
		srv.Close()
		switch {
		case detach && (ran != 0 || detached != 1):
			t.Errorf("a call that may poll: run %d times where it arrived, %d on its own goroutine; want 0 and 1", ran, detached)
		case detach && (strings.Contains(string(body), `"result"`) || !strings.Contains(string(body), "retry:")):
			t.Errorf("a call that polled answered %q before it was released, want the priming event alone", body)
		case !detach && (ran != 1 || detached != 0):
			t.Errorf("a call that cannot poll: run %d times where it arrived, %d on its own goroutine; want 1 and 0", ran, detached)
		case !detach && string(body) != `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`:
			t.Errorf("a call that cannot poll answered %q, want its result as a JSON body", body)
		}
	}
}

// streamsOf counts the hub's streams a client could resume.
func streamsOf(h *Transport) int {
	n := 0
	h.streams.Range(func(any, any) bool { n++; return true })
	return n
}

// TestCallRefusedWhileClosing: a call that would run where it arrived
// while the hub is closing (Core.Run runs nothing) is answered 503, not
// left with an empty answer.
func TestCallRefusedWhileClosing(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	core := Core{Sessions: session.NewRegistry(), Context: ctx,
		Go: func(func()) {}, Run: func(func()) {}, // closed: nothing runs
		Keep: func(*session.Session, wire.Message) bool { return true }}
	core.Call = func(context.Context, *session.Session, wire.Message) (func() (json.RawMessage, *session.RPCError), bool) {
		return func() (json.RawMessage, *session.RPCError) { return json.RawMessage(`{}`), nil }, false
	}
	h := New(core)
	sid := h.core.Sessions.Generate()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.serveCall(r.Context(), w, r, h.core.Sessions.Get(sid), wire.Peek([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`)), h.newStream(sid, []byte("1"), true), func() {})
	}))
	defer srv.Close()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(`{}`))
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a call while the hub closes: %s, want 503", resp.Status)
	}
}

// TestCallStreamWhenSomethingCameFirst: a call the hub serves where it
// arrived answers with a JSON body only when nothing came before its answer
// and its client takes one (TestPlainAnswerNotStored). A notification about
// the call begins the resumable stream — findable by a resuming client from
// its priming event on — which then carries the answer as its last event;
// a client that takes only events gets the answer as one. Once answered,
// the stream is not kept where a client could resume it.
func TestCallStreamWhenSomethingCameFirst(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	for _, tc := range []struct {
		name, accept string
		notify       bool
		streams      int // the streams a client could resume once the call is done with its stream
	}{
		{"progress first", "application/json, text/event-stream", true, 1},
		{"events only", "text/event-stream", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var h *Transport
			during := make(chan int, 1)
			core := Core{Sessions: session.NewRegistry(), Context: ctx, Go: func(fn func()) { go fn() }, Run: func(fn func()) { fn() },
				Keep: func(*session.Session, wire.Message) bool { return true }}
			core.Call = func(ctx context.Context, _ *session.Session, _ wire.Message) (func() (json.RawMessage, *session.RPCError), bool) {
				return func() (json.RawMessage, *session.RPCError) {
					if tc.notify && !session.StreamOf(ctx).Notify("notifications/progress", map[string]any{"progressToken": "p", "progress": 1}) {
						t.Errorf("%s: the notification found no stream", tc.name)
					}
					during <- streamsOf(h)
					return json.RawMessage(`{"content":[]}`), nil
				}, false
			}
			h = New(core)
			sid := h.core.Sessions.Generate()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				h.serveCall(r.Context(), w, r, h.core.Sessions.Get(sid), wire.Peek([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t"}}`)), h.newStream(sid, []byte("7"), true), func() {})
			}))
			defer srv.Close()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(`{}`))
			req.Header.Set("Accept", tc.accept)
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var events []sseEvent
			readSSE(t, resp, func(ev sseEvent) { events = append(events, ev) })
			if n := <-during; n != tc.streams {
				t.Errorf("%s: %d streams a client could resume during the call, want %d", tc.name, n, tc.streams)
			}
			var data []string
			for _, ev := range events {
				data = append(data, ev.data)
			}
			want := []string{"", `{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`} // the priming event, the answer
			if tc.notify {
				want = slices.Insert(want, 1, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"progressToken":"p"}}`)
			}
			if !slices.Equal(data, want) || events[0].id == "" || events[0].retry == "" {
				t.Errorf("%s: events %q, want the priming event (an id and a retry) and the data %q", tc.name, events, want)
			}
			if streamsOf(h) != 0 {
				t.Errorf("%s: the answered stream is still kept where a client could resume it", tc.name)
			}
		})
	}
}

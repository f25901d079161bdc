package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// A requestStream is the response stream of one client request over
// Streamable HTTP, written by the hub itself (decision 0200): mcp-go writes
// its answer into it (a JSON body or SSE events, it is mcp-go's
// ResponseWriter), the call path its notifications about the request
// (session.Stream: progress), and the client gets both as SSE events in
// the order they came, each once, the response last. A plain stream (a
// call the hub serves) whose response comes first sends it as a JSON
// body instead (decision 0246).
//
// In the session era (a request of a session whose client takes an event
// stream) the stream is resumable as SEP-1699 has it, like the reference
// server's: it begins with a priming event (an id, a retry field, no
// data), each event has an id in the hub's event store, and mcp-go serves
// the request on a goroutine of its own, so the stream outlives the
// client's connection: a client that lost it, or whose connection the hub
// ended (Poll, because an upstream ended the hub's), resumes it with a GET
// carrying Last-Event-ID and gets what it missed, then the rest. In
// 2026-07-28 (no resumability) the stream is the request's connection,
// and mcp-go's answer passes as it is unless a notification came first.
type requestStream struct {
	h         *Transport
	sid       string // "" in 2026-07-28
	id        []byte // the request's, as sent
	resumable bool
	key       string // its stream in the event store (resumable, once begun)

	mu       sync.Mutex
	conn     http.ResponseWriter // the client's connection; nil while none is attached
	ended    chan struct{}       // closed to end the attached connection (Poll)
	raw      *outboundWriter     // mcp-go's answer passes as it is (an error status; a JSON body in 2026-07-28)
	began    bool                // the event stream began (its headers, and its priming event)
	done     bool                // mcp-go is done: nothing more comes
	finished chan struct{}       // closed once done

	// reply is the request's, whose error replaces mcp-go's (reply.go);
	// modern: the request is of the 2026-07-28 revision.
	reply  *session.Reply
	modern bool

	// plain: an answer that nothing came before goes as a JSON body, not
	// as the stream's events (a call the hub serves, decision 0246).
	plain bool

	// What mcp-go wrote.
	header http.Header
	status int
	sse    bool   // it answers with SSE events
	buf    []byte // its JSON body, or an SSE event not yet complete
}

// retryMillis is the reconnection time the hub's streams ask of a client
// (the SSE retry field of the priming event).
const retryMillis = 1000

// streamSeq names the hub's streams in the event store.
var streamSeq atomic.Uint64

// streamPrefix begins the event store key of every stream of the hub's
// (mcp-go names its own with UUIDs).
const streamPrefix = "hub-stream-"

func (h *Transport) newStream(sid string, id []byte, resumable bool) *requestStream {
	return &requestStream{h: h, sid: sid, id: bytes.Clone(id), resumable: resumable, header: http.Header{}, finished: make(chan struct{})}
}

// accepts reports whether a request's client takes a response of the
// media type (text/event-stream, application/json).
func accepts(r *http.Request, mediaType string) bool {
	return strings.Contains(r.Header.Get("Accept"), mediaType)
}

// serveStream serves a request with next (mcp-go) on a stream of the
// hub's; after runs once mcp-go is done with it.
func (h *Transport) serveStream(next http.Handler, w http.ResponseWriter, r *http.Request, st *requestStream, after func()) {
	r = r.WithContext(session.WithStream(r.Context(), st))
	st.mu.Lock()
	st.conn = w
	st.reply, st.modern = replyOf(r)
	st.mu.Unlock()
	if !st.resumable {
		next.ServeHTTP(st, r)
		st.finish()
		after()
		st.detach(w)
		return
	}
	// mcp-go serves the request on its own goroutine, with a context that
	// ends with the hub, not with the client's connection (carrying what
	// the transport put in the request's): a client that lost its
	// connection resumes the stream (MCP: a disconnection is no
	// cancellation; notifications/cancelled is).
	served := r.WithContext(session.Carry(h.core.Context, r.Context()))
	h.serveResumable(w, r, st, func() { next.ServeHTTP(st, served) }, after, true)
}

// serveResumable runs serve, which writes a request's answer into the
// resumable stream st, then finishes st and runs after, while the client's
// connection w holds the stream (until the answer, the stream ending the
// connection, or the client going). Detached, serve runs on a goroutine of
// the hub's, so that the connection can end before the answer; else on
// the connection's, and a request that arrives once the hub has closed is
// answered 503.
func (h *Transport) serveResumable(w http.ResponseWriter, r *http.Request, st *requestStream, serve, after func(), detach bool) {
	ended := st.attach(w)
	run := func() {
		serve()
		st.finish()
		after()
	}
	if detach {
		h.core.Go(run)
	} else if !h.runHere(run) {
		st.detach(w)
		after()
		http.Error(w, "the hub is shutting down", http.StatusServiceUnavailable)
		return
	}
	st.hold(r.Context(), w, ended)
}

// runHere runs fn on the calling goroutine under the hub's lifetime
// (Core.Run), and reports whether it ran: not once the hub has closed.
func (h *Transport) runHere(fn func()) (ran bool) {
	h.core.Run(func() {
		ran = true
		fn()
	})
	return ran
}

// attach makes w the stream's connection; the channel it returns is
// closed when the stream ends it (Poll).
func (st *requestStream) attach(w http.ResponseWriter) chan struct{} {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.ended != nil {
		close(st.ended)
	}
	st.conn, st.ended = w, make(chan struct{})
	return st.ended
}

// hold keeps the connection w until mcp-go is done, the stream ends the
// connection, or the client goes.
func (st *requestStream) hold(ctx context.Context, w http.ResponseWriter, ended chan struct{}) {
	select {
	case <-st.finished:
	case <-ended:
	case <-ctx.Done():
	}
	st.detach(w)
}

// detach ends the stream's use of the connection w.
func (st *requestStream) detach(w http.ResponseWriter) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.conn == w {
		st.conn = nil
	}
	if st.raw != nil {
		st.raw.detach()
	}
}

// finish marks mcp-go done: a JSON body it wrote is the stream's last
// event, and the stream is forgotten (what it sent stays in the event
// store for a client that resumes it).
func (st *requestStream) finish() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.raw == nil && !st.sse && len(bytes.TrimSpace(st.buf)) > 0 {
		msg := st.reply.Rewritten(bytes.TrimSpace(st.buf))
		switch {
		case !st.keep(wire.Message{ID: st.id}): // the answer to the stream's request: known by its id, not read again
			if !st.began && st.conn != nil {
				// A response dropped as the answer to a cancelled request.
				st.conn.WriteHeader(http.StatusAccepted)
			}
		case st.plain && !st.began:
			st.answer(msg)
		default:
			st.emit(msg, false) // the last: the connection's handler returns next
		}
	}
	st.buf = nil
	st.done = true
	close(st.finished)
	if st.ended != nil {
		close(st.ended)
		st.ended = nil
	}
	if st.key != "" {
		st.h.streams.Delete(st.key)
	}
}

// answer sends the response as a JSON body, the stream not begun: nothing
// came before it, so no event of the stream (not even the priming event)
// reached the client, which could resume nothing. The caller holds mu.
func (st *requestStream) answer(msg []byte) {
	if st.conn == nil {
		return // the client went before anything was sent: nothing to resume
	}
	st.conn.Header().Set("Content-Type", "application/json")
	st.conn.WriteHeader(http.StatusOK)
	_, _ = st.conn.Write(msg)
}

// keep applies the session's outbound filter to one message.
func (st *requestStream) keep(m wire.Message) bool {
	return st.sid == "" || st.h.keep(st.sid, m)
}

// begin starts the event stream on the connection: its headers and, when
// resumable, the priming event. The caller holds mu.
func (st *requestStream) begin() {
	if st.began {
		return
	}
	st.began = true
	if st.conn != nil {
		hd := st.conn.Header()
		hd.Set("Content-Type", "text/event-stream")
		hd.Set("Cache-Control", "no-cache")
		hd.Set("Connection", "keep-alive")
		st.conn.WriteHeader(http.StatusOK)
	}
	if st.resumable {
		// A client resumes a stream by an event id it was sent: the stream
		// is found from its first event on (serveResume).
		st.key = streamPrefix + strconv.FormatUint(streamSeq.Add(1), 10)
		st.h.streams.Store(st.key, st)
		// Written with what follows it: a flush of its own would cost each
		// call a write to the connection.
		id := st.store(nil)
		st.write(fmt.Appendf(nil, "id: %s\nretry: %d\ndata: \n\n", id, retryMillis), false)
	}
}

// emit sends one message as an event of the stream, flushed unless it is
// the last (the end of the response flushes it). The caller holds mu.
func (st *requestStream) emit(msg []byte, flush bool) {
	st.begin()
	var ev []byte
	if st.resumable {
		ev = fmt.Appendf(ev, "id: %s\n", st.store(msg))
	}
	ev = append(ev, "event: message\ndata: "...)
	ev = append(ev, msg...)
	st.write(append(ev, "\n\n"...), flush)
}

// store records a message of the stream in the event store and returns
// its event id.
func (st *requestStream) store(msg []byte) string {
	id, _ := st.h.events.StoreEvent(context.Background(), st.sid, st.key, msg)
	return id
}

// write sends an event to the attached connection, if any, flushed or
// not; a connection that fails is let go (the event waits in the store for
// a resume).
func (st *requestStream) write(ev []byte, flush bool) {
	if st.conn == nil {
		return
	}
	if _, err := st.conn.Write(ev); err != nil {
		st.conn = nil
		return
	}
	if f, ok := st.conn.(http.Flusher); ok && flush {
		f.Flush()
	}
}

// Notify sends a notification about the request on its stream
// (session.Stream).
func (st *requestStream) Notify(method string, params any) bool {
	msg, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", method, params})
	if err != nil {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done || st.raw != nil {
		return false
	}
	st.emit(msg, true)
	return true
}

// Poll ends the client's connection before the response; the client
// resumes the stream with Last-Event-ID (session.Stream).
func (st *requestStream) Poll() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.resumable || st.done || st.raw != nil {
		return false
	}
	st.begin() // its priming event goes out as the connection ends
	if st.ended != nil {
		close(st.ended)
		st.ended = nil
	}
	st.conn = nil
	return true
}

// Header is mcp-go's header of its answer.
func (st *requestStream) Header() http.Header { return st.header }

// WriteHeader takes mcp-go's status: an error status, or a JSON body of
// 2026-07-28 that nothing came before, passes as it is (through the
// outbound filter); anything else becomes events of the stream.
func (st *requestStream) WriteHeader(status int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.writeHeader(status)
}

func (st *requestStream) writeHeader(status int) {
	if st.status != 0 {
		return
	}
	st.status = status
	st.sse = strings.HasPrefix(st.header.Get("Content-Type"), "text/event-stream")
	if st.began || (status == http.StatusOK && (st.sse || st.resumable)) {
		return
	}
	if st.conn == nil {
		return
	}
	st.raw = st.h.outbound(st.conn, st.sid)
	st.raw.reply, st.raw.modern = st.reply, st.modern
	for k, v := range st.header {
		st.raw.Header()[k] = v
	}
	st.raw.WriteHeader(status)
}

// Write takes mcp-go's answer: SSE events become the stream's, a JSON body
// its last event (finish).
func (st *requestStream) Write(p []byte) (int, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.status == 0 {
		st.writeHeader(http.StatusOK)
	}
	if st.raw != nil {
		return st.raw.Write(p)
	}
	if st.done {
		return 0, errDetached
	}
	st.buf = append(st.buf, p...)
	if !st.sse {
		return len(p), nil
	}
	for {
		n := eventEnd(st.buf)
		if n < 0 {
			break
		}
		if data := eventData(st.buf[:n]); len(data) > 0 && st.keep(wire.Peek(data)) {
			st.emit(st.reply.Rewritten(data), true)
		}
		st.buf = st.buf[n:]
	}
	st.buf = append([]byte(nil), st.buf...)
	return len(p), nil
}

// eventData returns the data of one SSE event (its data lines joined).
func eventData(event []byte) []byte {
	var data []byte
	for _, line := range bytes.Split(event, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(d, []byte(" "))...)
		}
	}
	return bytes.TrimSpace(data)
}

// Flush lets mcp-go stream (each event is flushed as it is written).
func (st *requestStream) Flush() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.raw != nil {
		st.raw.Flush()
	}
}

// serveResume serves a GET carrying Last-Event-ID of a stream of the hub's:
// the events after that id, then the rest of the stream while it lives. It
// reports false when the id is not of one of the hub's streams (mcp-go's
// own, or unknown: mcp-go answers it).
func (h *Transport) serveResume(w http.ResponseWriter, r *http.Request, sid, last string) bool {
	key, ok := h.events.StreamOf(sid, last)
	if !ok || !strings.HasPrefix(key, streamPrefix) {
		return false
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("Connection", "keep-alive")
	v, live := h.streams.Load(key)
	if !live {
		w.WriteHeader(http.StatusOK)
		_, _ = h.events.ReplayEventsAfter(r.Context(), sid, last, sendTo(w))
		return true
	}
	st := v.(*requestStream)
	st.mu.Lock()
	w.WriteHeader(http.StatusOK)
	// Under mu, no event is stored meanwhile: each comes in the replay or
	// after it, once.
	_, _ = h.events.ReplayEventsAfter(r.Context(), sid, last, sendTo(w))
	if st.done {
		st.mu.Unlock()
		return true
	}
	if st.ended != nil {
		close(st.ended)
	}
	st.conn, st.ended = w, make(chan struct{})
	ended := st.ended
	st.mu.Unlock()
	st.hold(r.Context(), w, ended)
	return true
}

// sendTo writes replayed events to w.
func sendTo(w http.ResponseWriter) func(id string, msg json.RawMessage) error {
	return func(id string, msg json.RawMessage) error {
		if _, err := fmt.Fprintf(w, "id: %s\nevent: message\ndata: %s\n\n", id, msg); err != nil {
			return err
		}
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		return nil
	}
}

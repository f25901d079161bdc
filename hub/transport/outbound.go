package transport

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// An outboundWriter filters what mcp-go writes to one HTTP response: each
// SSE event, or a JSON body, is one message. A JSON body dropped as the
// response to a cancelled request becomes 202 with no body.
//
// mcp-go keeps the writer of every response it streamed for resumability
// until the session ends (a resumable stream holds it), and with it the
// whole request; detach lets go of the response once the handler returned,
// so that what mcp-go keeps is this small struct.
type outboundWriter struct {
	mu      sync.Mutex
	w       http.ResponseWriter // nil once detached
	h       *Transport
	sid     string
	status  int
	sse     bool
	began   bool
	buf     []byte // an SSE event not yet complete
	opened  func() // told once an SSE stream began, or nil
	carried func() // told of each event written, or nil

	// reply is the request's, whose error replaces mcp-go's (reply.go);
	// modern says the request is of the 2026-07-28 revision, which maps
	// the error's code onto the HTTP status.
	reply  *session.Reply
	modern bool
}

// outbound wraps w with the session's filter.
func (h *Transport) outbound(w http.ResponseWriter, sid string) *outboundWriter {
	return &outboundWriter{w: w, h: h, sid: sid}
}

// serveOutbound serves r with next through the session's filter.
func (h *Transport) serveOutbound(next http.Handler, w http.ResponseWriter, r *http.Request, sid string) {
	o := h.outbound(w, sid)
	o.reply, o.modern = replyOf(r)
	next.ServeHTTP(o, r)
	o.finish()
	o.detach()
}

// finish writes a status held back for an answer that never came.
func (o *outboundWriter) finish() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.w != nil && o.status != 0 && !o.began {
		o.began = true
		o.w.WriteHeader(o.status)
	}
}

// errDetached is a write after the handler returned.
var errDetached = errors.New("the response has ended")

// detach ends the writer's use of the response.
func (o *outboundWriter) detach() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.w, o.buf = nil, nil
}

func (o *outboundWriter) Header() http.Header {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.w == nil {
		return http.Header{}
	}
	return o.w.Header()
}

func (o *outboundWriter) WriteHeader(status int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.w != nil {
		o.writeHeader(status)
	}
}

func (o *outboundWriter) writeHeader(status int) {
	if o.began {
		return
	}
	o.status = status
	o.sse = strings.HasPrefix(o.w.Header().Get("Content-Type"), "text/event-stream")
	// A JSON answer's status waits for the answer when the call path may
	// replace its error (and with it the status).
	if o.sse || status != http.StatusOK && o.reply == nil {
		o.began = true
		o.w.WriteHeader(status)
	}
	if o.sse && status == http.StatusOK && o.opened != nil {
		o.opened()
	}
}

func (o *outboundWriter) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.w == nil {
		return 0, errDetached
	}
	if o.status == 0 {
		o.writeHeader(http.StatusOK)
	}
	if !o.sse {
		if !o.began {
			o.began = true
			sid := o.sid
			if sid == "" {
				sid = o.w.Header().Get("Mcp-Session-Id")
			}
			if o.status == http.StatusOK && sid != "" && !o.h.keep(sid, wire.Peek(bytes.TrimSpace(p))) {
				o.w.WriteHeader(http.StatusAccepted)
				return len(p), nil
			}
			if b, code, ok := o.reply.Rewrite(p); ok {
				status := o.status
				if o.modern {
					status = wire.RPCErrorStatus(code)
				}
				o.w.WriteHeader(status)
				if _, err := o.w.Write(b); err != nil {
					return 0, err
				}
				return len(p), nil
			}
			o.w.WriteHeader(o.status)
		}
		return o.w.Write(p)
	}
	// Whole events are filtered where they are; only an event cut short
	// waits in buf for the rest of it.
	b := p
	if len(o.buf) > 0 {
		b = append(o.buf, p...)
	}
	for {
		n := eventEnd(b)
		if n < 0 {
			break
		}
		if o.keepEvent(b[:n]) {
			ev := b[:n]
			if o.reply != nil {
				ev = o.reply.RewriteEvent(ev)
			}
			if _, err := o.w.Write(ev); err != nil {
				return 0, err
			}
			if o.carried != nil {
				o.carried()
			}
		}
		b = b[n:]
	}
	o.buf = append(o.buf[:0], b...)
	return len(p), nil
}

// eventEnd returns the length of the first complete SSE event in b (ended
// by a blank line, "\n\n" or "\r\n\r\n"), or -1.
func eventEnd(b []byte) int {
	end := -1
	if i := bytes.Index(b, []byte("\n\n")); i >= 0 {
		end = i + 2
	}
	if i := bytes.Index(b, []byte("\r\n\r\n")); i >= 0 && (end < 0 || i+4 < end) {
		end = i + 4
	}
	return end
}

// keepEvent applies the filter to one SSE event's data. On the HTTP+SSE
// transport the session's id first arrives in the stream itself, in the
// endpoint event (/message?sessionId=…).
func (o *outboundWriter) keepEvent(event []byte) bool {
	if o.sid == "" {
		if i := bytes.Index(event, []byte("sessionId=")); i >= 0 && bytes.Contains(event, []byte("event: endpoint")) {
			id := event[i+len("sessionId="):]
			if end := bytes.IndexAny(id, "&\r\n"); end >= 0 {
				id = id[:end]
			}
			o.sid = string(id)
		}
		return true
	}
	for rest := event; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			return o.h.keep(o.sid, wire.Peek(bytes.TrimSpace(data)))
		}
	}
	return true
}

// Flush lets mcp-go stream: whole events are already written through.
func (o *outboundWriter) Flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if f, ok := o.w.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (o *outboundWriter) Unwrap() http.ResponseWriter {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.w
}

// keep decides whether one outbound message reaches the session sid.
func (h *Transport) keep(sid string, m wire.Message) bool {
	return h.core.Keep(h.core.Sessions.Get(sid), m)
}

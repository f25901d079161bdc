package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// The stdio and HTTP+SSE transports answer a session's tasks requests
// (Core.Task) and its tools/call that asks for a task the hub hands it
// (Core.Call) in place of mcp-go, as the Streamable HTTP transport does
// (task.go): mcp-go would answer them from a task store of its own, or with
// the tool's result. Each is answered on a goroutine of its own (a
// tasks/result waits for its task) and written as any answer is, through
// the session's outbound filter (decision 0235).

// mayTakeTask reports whether a session's message is one taskAnswer may
// take: a tasks request, or a tools/call whose params carry a task (a scan
// of the params, no decode: every call passes here).
func mayTakeTask(m wire.Message) bool {
	return len(m.ID) > 0 && (isTaskRequest(m) || m.Is(mcp.MethodToolsCall) && len(m.Param("task")) > 0)
}

// taskAnswer returns what answers a session's message in place of mcp-go,
// or nil when it is mcp-go's. body is the message, kept by the caller.
func (h *Transport) taskAnswer(ctx context.Context, cs *session.Session, m wire.Message, body []byte) func() (json.RawMessage, *session.RPCError) {
	switch {
	case h.core.Task == nil || !mayTakeTask(m):
		return nil
	case isTaskRequest(m):
		return func() (json.RawMessage, *session.RPCError) { return h.core.Task(ctx, cs, body) }
	case h.core.Call != nil:
		answer, _ := h.core.Call(ctx, cs, m)
		return answer
	}
	return nil
}

// serveStdioLine takes a line of the stdio session cs (m, peeked from it;
// both are the hub's to keep) from mcp-go when it is a tasks request or a
// tools/call the call path takes (taskAnswer; Core.Call, decision 0239),
// and returns what serves it: it runs the request and writes its answer.
// Nil: the line is mcp-go's.
func (h *Transport) serveStdioLine(cs *session.Session, line []byte, m wire.Message) func() {
	call := len(m.ID) > 0 && m.Is(mcp.MethodToolsCall) && h.core.Call != nil
	if cs == nil || !mayTakeTask(m) && !call {
		return nil
	}
	ctx := h.core.Context
	if ctx == nil {
		ctx = context.Background()
	}
	var answer func() (json.RawMessage, *session.RPCError)
	if call {
		answer, _ = h.core.Call(ctx, cs, m)
	} else {
		answer = h.taskAnswer(ctx, cs, m, line)
	}
	if answer == nil {
		return nil
	}
	return func() { writeAnswer(h.stdioOut.Load(), m.ID, answer) }
}

// writeAnswer runs answer and writes the answer of request id to the
// stdio client w (nil: none is served).
func writeAnswer(w *trackingWriter, id []byte, answer func() (json.RawMessage, *session.RPCError)) {
	b, err := session.Answer(id, answer)
	if w != nil && err == nil {
		_, _ = w.Write(append(b, '\n'))
	}
}

// serveLegacyTask answers an HTTP+SSE client's message (body, the POST's)
// in place of mcp-go when taskAnswer takes it: 202 at once, as mcp-go
// does, and the answer on the session's stream. It reports whether it did.
func (h *Transport) serveLegacyTask(ctx context.Context, w http.ResponseWriter, cs *session.Session, body []byte) bool {
	if !mayTakeTask(wire.Peek(body)) {
		return false
	}
	body = bytes.Clone(body) // the POST's buffer goes back to the pool
	m := wire.Peek(body)
	answer := h.taskAnswer(context.WithoutCancel(ctx), cs, m, body)
	h.mu.Lock()
	legacy := h.legacy
	h.mu.Unlock()
	if answer == nil || legacy == nil {
		return false
	}
	w.WriteHeader(http.StatusAccepted)
	h.core.Go(func() {
		if b, err := session.Answer(json.RawMessage(m.ID), answer); err == nil {
			_ = legacy.SendEventToSession(cs.ID(), json.RawMessage(b))
		}
	})
	return true
}

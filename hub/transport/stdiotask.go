package transport

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// serveStdioTask answers, in place of mcp-go, a stdio client's tasks
// requests (Core.Task) and its tools/call that asks for a task the hub
// hands it (Core.StdioTaskCall), as the HTTP transport does (task.go):
// mcp-go's stdio server would answer them from a task store of its own, or
// with the tool's result. Each is answered on a goroutine of its own (a
// tasks/result waits for its task) and written as any answer is, through
// the session's outbound filter. It reports whether it took the line.
func (h *Transport) serveStdioTask(line []byte) bool {
	cs := h.core.Sessions.Get(session.StdioID)
	m := wire.Peek(line)
	if cs == nil || h.core.Task == nil || len(m.ID) == 0 {
		return false
	}
	ctx := h.core.Context
	if ctx == nil {
		ctx = context.Background()
	}
	body := bytes.Clone(line) // the reader's buffer is read again
	var answer func() (json.RawMessage, *session.RPCError)
	switch {
	case isTaskRequest(m):
		answer = func() (json.RawMessage, *session.RPCError) { return h.core.Task(ctx, cs, body) }
	case m.Is(mcp.MethodToolsCall) && h.core.StdioTaskCall != nil && len(m.Param("task")) > 0:
		// (a scan of the params, no decode: every call of stdio passes here)
		answer = h.core.StdioTaskCall(ctx, cs, body)
	}
	if answer == nil {
		return false
	}
	id := json.RawMessage(bytes.Clone(m.ID))
	h.core.Go(func() {
		res, e := answer()
		var msg any = struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  json.RawMessage `json:"result"`
		}{mcp.JSONRPC_VERSION, id, res}
		if e != nil {
			msg = rpcAnswer{JSONRPC: mcp.JSONRPC_VERSION, ID: id, Error: &rpcErrorBody{Code: e.Code, Message: e.Message, Data: e.Data}}
		}
		b, err := json.Marshal(msg)
		if w := h.stdioOut.Load(); w != nil && err == nil {
			_, _ = w.Write(append(b, '\n'))
		}
	})
	return true
}

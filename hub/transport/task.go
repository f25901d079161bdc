package transport

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
	"github.com/mark3labs/mcp-go/mcp"
)

// isTaskRequest reports whether a client's message is one of the tasks
// requests the hub answers itself (Core.Task).
func isTaskRequest(m wire.Message) bool {
	return len(m.ID) > 0 && (m.Is(mcp.MethodTasksGet) || m.Is(mcp.MethodTasksResult) ||
		m.Is(mcp.MethodTasksList) || m.Is(mcp.MethodTasksCancel))
}

// serveTask answers a session's tasks request with Core.Task, in a JSON
// body (a POST may be answered so in the session era).
func (h *Transport) serveTask(ctx context.Context, w http.ResponseWriter, cs *session.Session, m wire.Message, body []byte) {
	res, e := h.core.Task(ctx, cs, body)
	id := json.RawMessage(m.ID)
	if e != nil {
		var data any
		if e.Data != nil {
			data = e.Data
		}
		writeRPCErrorData(w, http.StatusOK, id, e.Code, e.Message, data)
		return
	}
	writeResult(w, id, res)
}

// writeResult answers a request with its result in a JSON body.
func writeResult(w http.ResponseWriter, id, res json.RawMessage) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_ = json.NewEncoder(w).Encode(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
	}{mcp.JSONRPC_VERSION, id, res})
}

// isStatelessTaskRequest reports whether a 2026-07-28 client's message is
// one of the tasks extension's requests the hub answers itself
// (Core.StatelessTask): tasks/get, tasks/update, tasks/cancel.
func isStatelessTaskRequest(m wire.Message) bool {
	return len(m.ID) > 0 && (m.Is(mcp.MethodTasksGet) || m.Is(mcp.MethodTasksCancel) || m.Is(wire.MethodTasksUpdate))
}

// serveStatelessTask answers a 2026-07-28 client's tasks request with
// Core.StatelessTask, in a JSON body with the HTTP status the revision
// gives its answer, after the checks mcp-go makes of a request it serves:
// the Mcp-Method header names the method, and the Mcp-Name header — which
// SEP-2663 requires of these requests, for routing by task — names the
// body's taskId (SEP-2243: HeaderMismatch, HTTP 400).
func (h *Transport) serveStatelessTask(ctx context.Context, w http.ResponseWriter, header http.Header, m wire.Message, body []byte) {
	id := json.RawMessage(m.ID)
	method := wire.StringValue(m.Method)
	var p struct {
		TaskID string `json:"taskId"`
	}
	_ = json.Unmarshal(m.Params, &p)
	name, ok := mcp.DecodeHeaderValue(strings.TrimSpace(header.Get(mcp.HeaderName)))
	switch {
	case strings.TrimSpace(header.Get(mcp.HeaderMethod)) != method:
		writeRPCError(w, http.StatusBadRequest, id, mcp.HEADER_MISMATCH, "the "+mcp.HeaderMethod+" header does not name the method "+method)
		return
	case !ok || name != p.TaskID:
		writeRPCError(w, http.StatusBadRequest, id, mcp.HEADER_MISMATCH, "the "+mcp.HeaderName+" header does not name the task of "+method)
		return
	}
	res, e := h.core.StatelessTask(ctx, body)
	if e != nil {
		var data any
		if e.Data != nil {
			data = e.Data
		}
		writeRPCErrorData(w, wire.RPCErrorStatus(e.Code), id, e.Code, e.Message, data)
		return
	}
	writeResult(w, id, res)
}

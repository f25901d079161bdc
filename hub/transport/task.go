package transport

import (
	"context"
	"encoding/json"
	"net/http"

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
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_ = json.NewEncoder(w).Encode(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
	}{mcp.JSONRPC_VERSION, id, res})
}

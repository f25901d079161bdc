package task

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// Declared reports whether a 2026-07-28 client declared the tasks
// extension in the capabilities of its request (per request: the revision
// has no session to remember them).
func Declared(caps *mcp.ClientCapabilities) bool {
	if caps == nil {
		return false
	}
	_, ok := caps.Extensions[rpc.TasksExtension]
	return ok
}

// missing answers a client that did not declare the extension, as SEP-2663
// requires: MissingRequiredClientCapability naming it.
var missing = session.RPCError{
	Code: mcp.MISSING_REQUIRED_CLIENT_CAPABILITY, Message: "Missing required client capability: the " + rpc.TasksExtension + " extension",
	Data: json.RawMessage(`{"requiredCapabilities":{"extensions":{"` + rpc.TasksExtension + `":{}}}}`),
}

// ack is the empty answer of tasks/cancel and tasks/update.
var ack = json.RawMessage(`{"resultType":"complete"}`)

// ServeStateless answers a 2026-07-28 client's tasks/get, tasks/update or
// tasks/cancel (params as sent), whose caller is Stateless(endpoint): with
// the raw result, or the error to answer with. The handle goes to the
// upstream task it names, in the upstream's revision (2025-11-25).
func (r *Router) ServeStateless(ctx context.Context, c *relay.Caller, caller, method string, params json.RawMessage) (json.RawMessage, *session.RPCError) {
	var p struct {
		TaskID string    `json:"taskId"`
		Meta   *mcp.Meta `json:"_meta"`
	}
	_ = json.Unmarshal(params, &p)
	if p.Meta == nil || !Declared(p.Meta.ClientCapabilities()) {
		e := missing
		return nil, &e
	}
	if p.TaskID == "" {
		return nil, &session.RPCError{Code: mcp.INVALID_PARAMS, Message: "params.taskId is required"}
	}
	h, err := r.Open(ctx, p.TaskID, caller)
	if err != nil {
		return nil, &session.RPCError{Code: mcp.INVALID_PARAMS, Message: fmt.Sprintf("%v: %s", err, p.TaskID)}
	}
	switch mcp.MCPMethod(method) {
	case mcp.MethodTasksCancel:
		return r.cancel(ctx, c, h)
	case wire.MethodTasksUpdate:
		// A 2025-11-25 task has no tasks/update, and the hub surfaces no
		// inputRequests for one: every key answered is one the hub did
		// not issue, which the extension says to ignore. The task must
		// exist.
		if _, e := r.Send(ctx, c, h, string(mcp.MethodTasksGet)); e != nil {
			return nil, e
		}
		return ack, nil
	}
	return r.get(ctx, c, h, p.TaskID)
}

// get answers tasks/get: the upstream's task, and for one that ended its
// result or error from tasks/result, which then answers at once.
func (r *Router) get(ctx context.Context, c *relay.Caller, h Handle, handle string) (json.RawMessage, *session.RPCError) {
	got, e := r.Send(ctx, c, h, string(mcp.MethodTasksGet))
	if e != nil {
		return nil, e
	}
	var t struct{ Status mcp.TaskStatus }
	_ = json.Unmarshal(got, &t)
	var result, failure json.RawMessage
	if t.Status == mcp.TaskStatusCompleted || t.Status == mcp.TaskStatusFailed {
		res, e := r.Send(ctx, c, h, string(mcp.MethodTasksResult))
		if e != nil {
			failure, _ = json.Marshal(rpcError{e.Code, e.Message, e.Data})
		} else {
			result = res
		}
	}
	out, err := detailed(got, handle, result, failure)
	if err != nil {
		return nil, &session.RPCError{Code: mcp.INTERNAL_ERROR, Message: h.Service + ": " + err.Error()}
	}
	return out, nil
}

// rpcError is a JSON-RPC error as a failed task inlines it.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// cancel answers tasks/cancel with the empty acknowledgement, also for a
// task that had ended (which 2025-11-25 refuses to cancel, and 2026-07-28
// acknowledges): the upstream's refusal stands only for a task it does
// not know.
func (r *Router) cancel(ctx context.Context, c *relay.Caller, h Handle) (json.RawMessage, *session.RPCError) {
	if _, e := r.Send(ctx, c, h, string(mcp.MethodTasksCancel)); e != nil {
		if _, gone := r.Send(ctx, c, h, string(mcp.MethodTasksGet)); gone != nil {
			return nil, e
		}
	}
	return ack, nil
}

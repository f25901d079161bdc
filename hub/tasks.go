package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// Tasks handed to the hub's clients (decision 0211). A session-era client
// that asks for a task in a tools/call of a tool its service offers as one
// gets the task the service made, under a handle of the hub's: the
// service's name, the upstream's task id and the client's session, sealed
// (hub/seal) so that it names exactly one upstream task and no client can
// make up or alter one. tasks/get, tasks/result, tasks/list and
// tasks/cancel are answered by the hub before mcp-go sees them (mcp-go
// would answer them from a store of its own): each handle goes to the
// upstream it names, on the upstream session that serves the caller.

// A taskHandle is what a handle of the hub's seals.
type taskHandle struct {
	Service string `json:"s"`
	Task    string `json:"t"` // the upstream's task id
	Session string `json:"c"` // the client session whose call made it
}

// sealTask returns the hub's handle of an upstream task.
func (h *callPath) sealTask(t taskHandle) string {
	b, _ := json.Marshal(t) // three strings: never fails
	return h.sealer.Seal(b)
}

// tasksSince is the first revision with tasks.
const tasksSince = "2025-11-25"

// errBadHandle refuses a handle that is not the hub's, not this session's,
// or names a service out of the caller's reach: all look alike to the
// client, so none tells which services exist.
var errBadHandle = errors.New("unknown task")

// openTask returns what a handle of the hub's names, for the session sid.
func (h *callPath) openTask(ctx context.Context, handle, sid string) (taskHandle, error) {
	var t taskHandle
	b, err := h.sealer.Open(handle)
	if err != nil || json.Unmarshal(b, &t) != nil || t.Session != sid {
		return t, errBadHandle
	}
	if _, v := h.scopes.View(ctx); !v.Reach.Services[t.Service] {
		return t, errBadHandle
	}
	return t, nil
}

// handsTasks reports whether the hub hands tasks to the client of a
// request: a session-era client over Streamable HTTP, whose answer the
// transport can write (session.Reply). A stdio client or a 2026-07-28 one
// is answered with the task's result instead, as a server that declares
// no tasks does.
func handsTasks(ctx context.Context) bool {
	return session.ReplyOf(ctx) != nil && handsTasksTo(ctx)
}

// handsTasksTo reports whether the client of a request is one the hub
// hands tasks to (handsTasks), whatever the request: a session of
// Streamable HTTP (not stdio, not the legacy HTTP+SSE pair, whose
// requests the hub does not answer before mcp-go) in a revision that has
// tasks and sessions.
func handsTasksTo(ctx context.Context) bool {
	if sid := relay.SessionID(ctx); sid == "" || sid == session.StdioID {
		return false
	}
	if ep, ok := session.EndpointOf(ctx); ok && ep.Path == "/sse" {
		return false
	}
	if v := server.RequestProtocolVersion(ctx); v != "" && v < tasksSince {
		return false // a revision before tasks
	}
	return !server.IsModernRequest(ctx)
}

// offersTasks reports whether a request's endpoint reaches a tool its
// service offers as a task: the hub then declares tasks to the session.
func (h *callPath) offersTasks(ctx context.Context) bool {
	cat, v := h.scopes.View(ctx)
	for _, t := range cat.Tools {
		if t.Tasks && v.Reach.Services[t.Service] {
			return true
		}
	}
	return false
}

// declareTasks adds the 2025-11-25 tasks capability to an initialize
// result when the hub hands tasks to the session (a revision that has
// them, over Streamable HTTP) and some service in its reach offers one.
func (h *callPath) declareTasks(ctx context.Context, res *mcp.InitializeResult) {
	if !handsTasksTo(ctx) || res.ProtocolVersion < tasksSince {
		return
	}
	h.lister.Catalog(ctx) // as a list waits for the services not listed yet
	if !h.offersTasks(ctx) {
		return
	}
	res.Capabilities.Tasks = &mcp.TasksCapability{
		List:   &struct{}{},
		Cancel: &struct{}{},
		Requests: &mcp.TaskRequestsCapability{Tools: &struct {
			Call *struct{} `json:"call,omitempty"`
		}{Call: &struct{}{}}},
	}
}

// listTaskSupport marks the listed tools a client may call as a task:
// each whose service offers it as one, as "optional", for the hub also
// runs a task-only tool for a client that asks for no task (decision
// 0210).
func (h *callPath) listTaskSupport(ctx context.Context, tools []mcp.Tool, exposed func(string) string) {
	if !handsTasksTo(ctx) {
		return
	}
	cat, v := h.scopes.View(ctx)
	for i := range tools {
		if t := cat.Tools[exposed(tools[i].Name)]; t != nil && t.Tasks && v.Reach.Services[t.Service] {
			tools[i].Execution = &mcp.ToolExecution{TaskSupport: mcp.TaskSupportOptional}
		}
	}
}

// startTask sends a client's task-augmented tools/call to the service as a
// task and answers the client with the task under the hub's handle (the
// transport writes it in place of mcp-go's tool result). An upstream that
// answers with a result at once is answered with that result.
func (h *callPath) startTask(ctx context.Context, c *relay.Caller, b relay.Backend, service string, params callParams) (*mcp.CallToolResult, json.RawMessage, error) {
	raw, err := b.Request(ctx, c, string(mcp.MethodToolsCall), params)
	if err != nil {
		return nil, nil, err
	}
	var created struct {
		Task *struct {
			TaskID string `json:"taskId"`
		} `json:"task"`
	}
	if json.Unmarshal(raw, &created) != nil || created.Task == nil || created.Task.TaskID == "" {
		return nil, raw, nil
	}
	handle := h.sealTask(taskHandle{Service: service, Task: created.Task.TaskID, Session: c.Session})
	h.pass.RouteTask(service, created.Task.TaskID, c.Session, handle)
	out, err := withHandle(h.masker.JSON(raw), handle)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: the answer to a task-augmented tools/call: %w", service, err)
	}
	session.SetResult(ctx, out)
	// What mcp-go encodes and the transport replaces: a tool result, as
	// its handler must return one.
	return &mcp.CallToolResult{Content: []mcp.Content{}}, nil, nil
}

// ServeTask answers a tasks/get, tasks/result, tasks/list or tasks/cancel
// of the session cs (body is the request as sent): with the raw result, or
// the JSON-RPC error to answer with. ctx is the HTTP request's, with its
// endpoint.
func (h *callPath) ServeTask(ctx context.Context, cs *session.Session, body []byte) (json.RawMessage, *session.RPCError) {
	if t := cs.ClientSession(); t != nil {
		ctx = h.srv.WithContext(ctx, t)
	}
	m := wire.Peek(body)
	c := relay.CallerOf(ctx)
	c.Session = cs.ID()
	if m.Is(mcp.MethodTasksList) {
		return h.listTasks(ctx, c)
	}
	var p struct {
		TaskID string `json:"taskId"`
	}
	if json.Unmarshal(m.Params, &p) != nil || p.TaskID == "" {
		return nil, &session.RPCError{Code: mcp.INVALID_PARAMS, Message: "params.taskId is required"}
	}
	t, err := h.openTask(ctx, p.TaskID, c.Session)
	if err != nil {
		return nil, &session.RPCError{Code: mcp.INVALID_PARAMS, Message: fmt.Sprintf("%v: %s", err, p.TaskID)}
	}
	raw, rerr := h.taskRequest(ctx, c, t, wire.StringValue(m.Method))
	if rerr != nil {
		return nil, rerr
	}
	out, err := withHandle(h.masker.JSON(raw), p.TaskID)
	if err != nil {
		return nil, &session.RPCError{Code: mcp.INTERNAL_ERROR, Message: t.Service + ": " + err.Error()}
	}
	return out, nil
}

// taskRequest sends method for the upstream task t on the upstream session
// that serves c; an upstream's JSON-RPC error is answered as it sent it.
func (h *callPath) taskRequest(ctx context.Context, c *relay.Caller, t taskHandle, method string) (json.RawMessage, *session.RPCError) {
	b := h.settings().Backend(t.Service)
	if b == nil {
		return nil, &session.RPCError{Code: mcp.INVALID_PARAMS, Message: "the service " + t.Service + " is no longer offered"}
	}
	raw, err := b.Request(ctx, c, method, map[string]any{"taskId": t.Task})
	var refused *rpc.RPCError
	switch {
	case errors.As(err, &refused):
		e := rpcError(h.masker, refused)
		return nil, &e
	case err != nil:
		return nil, &session.RPCError{Code: mcp.INTERNAL_ERROR, Message: h.masker.Literal(serviceError(t.Service, err))}
	}
	return raw, nil
}

// listTasks answers tasks/list with the session's own tasks, each as its
// service reports it now; one that is gone (expired, or its upstream
// session ended) is left out.
func (h *callPath) listTasks(ctx context.Context, c *relay.Caller) (json.RawMessage, *session.RPCError) {
	tasks := []json.RawMessage{}
	for _, handle := range h.pass.TasksOf(c.Session) {
		t, err := h.openTask(ctx, handle, c.Session)
		if err != nil {
			continue
		}
		raw, rerr := h.taskRequest(ctx, c, t, string(mcp.MethodTasksGet))
		if rerr != nil {
			continue
		}
		if out, err := withHandle(h.masker.JSON(raw), handle); err == nil {
			tasks = append(tasks, out)
		}
	}
	b, _ := json.Marshal(map[string]any{"tasks": tasks})
	return b, nil
}

// withHandle returns an upstream's answer about one task with the hub's
// handle in place of the upstream's task id: the task's own taskId (at
// the top, as tasks/get answers, or in task, as a CreateTaskResult has
// it) and the related task in _meta (tasks/result).
func withHandle(raw json.RawMessage, handle string) (json.RawMessage, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, err
	}
	h, _ := json.Marshal(handle)
	if _, ok := top["taskId"]; ok {
		top["taskId"] = h
	}
	for _, key := range []string{"task", "_meta"} {
		obj, ok := top[key]
		if !ok {
			continue
		}
		var inner map[string]json.RawMessage
		if json.Unmarshal(obj, &inner) != nil {
			continue
		}
		if key == "task" {
			if _, ok := inner["taskId"]; ok {
				inner["taskId"] = h
			}
		} else if rel, ok := inner[mcp.RelatedTaskMetaKey]; ok {
			var r map[string]json.RawMessage
			if json.Unmarshal(rel, &r) == nil {
				r["taskId"] = h
				inner[mcp.RelatedTaskMetaKey], _ = json.Marshal(r)
			}
		}
		top[key], _ = json.Marshal(inner)
	}
	return json.Marshal(top)
}

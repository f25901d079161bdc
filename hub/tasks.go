package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/task"
	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// Tasks handed to the hub's clients (decisions 0211, 0235). A client that
// asks for a task (a session-era one, in the call's params.task) or takes
// one (a 2026-07-28 one that declares the tasks extension) in a tools/call
// of a tool its service offers as a task gets the task the service made,
// under a handle of the hub's (hub/task): the service's name, the upstream's
// task id and the caller, sealed, so that it names exactly one upstream
// task and no client can make up or alter one. The tasks requests are
// answered by the hub before mcp-go sees them (mcp-go would answer them
// from a store of its own): each handle goes to the upstream it names, on
// the upstream session that serves the caller.

// tasksSince is the first revision with tasks.
const tasksSince = "2025-11-25"

// handsTasks reports whether the hub hands tasks to the client of a
// request: a session-era client whose answer the transport writes
// (session.Reply: Streamable HTTP, or a call Call takes from stdio
// and HTTP+SSE). A 2026-07-28 client is answered in its extension's shape
// (handsFlatTasks), or with the task's result.
func handsTasks(ctx context.Context) bool {
	return session.ReplyOf(ctx) != nil && handsTasksTo(ctx)
}

// handsFlatTasks reports whether the hub hands the client of a request the
// 2026-07-28 extension's tasks: a stateless request over HTTP that declares
// the extension in its capabilities.
func handsFlatTasks(ctx context.Context) bool {
	info := server.RequestProtocolInfoFromContext(ctx)
	return session.ReplyOf(ctx) != nil && info != nil && info.Modern && task.Declared(info.ClientCapabilities)
}

// handsTasksTo reports whether the client of a request is one the hub
// hands tasks to (handsTasks), whatever the request: a session (Streamable
// HTTP, stdio, HTTP+SSE) in a revision that has tasks and sessions.
func handsTasksTo(ctx context.Context) bool {
	if relay.SessionID(ctx) == "" {
		return false
	}
	if v := server.RequestProtocolVersion(ctx); v != "" && v < tasksSince {
		return false // a revision before tasks
	}
	return !server.IsModernRequest(ctx)
}

// offered reports whether the hub hands a tool to v's client as a task.
func offered(t *catalog.Tool, v *catalog.View) bool {
	return t != nil && t.Tasks && v.Reach.Services[t.Service]
}

// offersTasks reports whether a request's endpoint reaches a tool its
// service offers as a task: the hub then declares tasks to the session.
func (h *callPath) offersTasks(ctx context.Context) bool {
	cat, v := h.scopes.View(ctx)
	for _, t := range cat.Tools {
		if offered(t, v) {
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

// declareExtension adds the 2026-07-28 tasks extension to a server/discover
// result when some service the endpoint reaches offers a task.
func (h *callPath) declareExtension(ctx context.Context, caps *mcp.ServerCapabilities) {
	h.lister.Catalog(ctx) // as a list waits for the services not listed yet
	if !h.offersTasks(ctx) {
		return
	}
	if caps.Extensions == nil {
		caps.Extensions = map[string]any{}
	}
	caps.Extensions[rpc.TasksExtension] = map[string]any{}
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
		if offered(cat.Tools[exposed(tools[i].Name)], v) {
			tools[i].Execution = &mcp.ToolExecution{TaskSupport: mcp.TaskSupportOptional}
		}
	}
}

// startTask sends a client's tools/call to the service as a task and
// answers the client with the task under the hub's handle (the transport
// writes it in place of mcp-go's tool result): in the 2026-07-28 shape for
// a stateless client (flat), else as the upstream sent it. An upstream
// that answers with a result at once is answered with that result.
func (h *callPath) startTask(ctx context.Context, c *relay.Caller, b relay.Backend, service string, params json.RawMessage, flat bool) (*mcp.CallToolResult, json.RawMessage, error) {
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
	t := task.Handle{Service: service, Task: created.Task.TaskID, Caller: task.Session(c.Session)}
	if flat {
		ep, _ := session.EndpointOf(ctx)
		t.Caller = task.Stateless(ep.Key())
	}
	handle := h.tasks.Seal(t)
	out, err := task.WithHandle(h.masker.JSON(raw), handle)
	if flat {
		out, err = task.Created(h.masker.JSON(raw), handle)
	} else {
		h.pass.RouteTask(service, created.Task.TaskID, c.Session, handle)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: the answer to a task-augmented tools/call: %w", service, err)
	}
	session.SetResult(ctx, out)
	// What mcp-go encodes and the transport replaces: a tool result, as
	// its handler must return one.
	return &mcp.CallToolResult{Content: []mcp.Content{}}, nil, nil
}

// ServeStatelessTask answers a 2026-07-28 client's tasks/get, tasks/update
// or tasks/cancel (body is the request as sent) for the caller its
// endpoint makes it (task.Stateless). ctx is the HTTP request's, with its
// endpoint.
func (h *callPath) ServeStatelessTask(ctx context.Context, body []byte) (json.RawMessage, *session.RPCError) {
	m := wire.Peek(body)
	ep, _ := session.EndpointOf(ctx)
	return h.tasks.ServeStateless(ctx, relay.CallerOf(ctx), task.Stateless(ep.Key()), wire.StringValue(m.Method), m.Params)
}

// enter returns ctx for the session cs, as mcp-go's handlers see it.
func (h *callPath) enter(ctx context.Context, cs *session.Session) context.Context {
	if t := cs.ClientSession(); t != nil {
		return h.srv.WithContext(ctx, t)
	}
	return ctx
}

// refusal is the error a client is answered with when an upstream failed a
// tasks request (task.Router.Refusal).
func (h *callPath) refusal(service string, err error) session.RPCError {
	var refused *rpc.RPCError
	if errors.As(err, &refused) {
		return rpcError(h.masker, refused)
	}
	return session.RPCError{Code: mcp.INTERNAL_ERROR, Message: h.masker.Literal(serviceError(service, err))}
}

package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// call is the one call path: every tools/call — an MCP client's, /api/call,
// and the search mode's call_tool — goes through it, so policy, scope,
// timeout, logging, masking and pass-through are the same for all. name is
// the exposed name; args the arguments object as sent; meta the request's
// _meta, passed on with its progress token rewritten to a hub-unique one.
func (h *callPath) call(ctx context.Context, c *relay.Caller, name string, args json.RawMessage, meta *mcp.Meta) (*mcp.CallToolResult, error) {
	return h.callRound(ctx, c, h.resolve(ctx, name), args, meta, mcp.MultiRoundTripParams{}, taskRun{})
}

// A resolution is where a call of a name leads, decided once per call:
// the catalogue and the view its request sees, and the tool of that
// catalogue the name is (nil: none).
type resolution struct {
	name    string // the exposed name called
	catalog *catalog.Catalog
	view    *catalog.View
	tool    *catalog.Tool
}

// resolve decides where a call of the exposed name leads for the request
// of ctx (building the first catalogue if none was).
func (h *callPath) resolve(ctx context.Context, name string) resolution {
	h.lister.Catalog(ctx)
	cat, v := h.scopes.View(ctx)
	return resolution{name: name, catalog: cat, view: v, tool: cat.Tools[name]}
}

// serveCall serves an MCP client's tools/call of the exposed tool: a retry
// of a multi-round-trip call brings its inputResponses and requestState
// along (mcp-go retries the handler so itself, with the answers of a
// session-era client it asked on the upstream's behalf), and a JSON-RPC
// error a 2026-07-28 upstream answered goes to the client as one.
func (h *callPath) serveCall(ctx context.Context, exposed string, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return h.serveResolved(ctx, h.resolve(ctx, exposed), req)
}

// serveResolved is serveCall of the tool rs resolved.
func (h *callPath) serveResolved(ctx context.Context, rs resolution, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var task taskRun
	switch {
	case handsTasks(ctx):
		task.asked = req.Params.Task
	case handsFlatTasks(ctx):
		// The 2026-07-28 extension's tasks are the server's choice: the
		// hub takes one whenever the service offers the tool as a task.
		task.asked, task.flat = &mcp.TaskParams{}, true
	}
	args, err := arguments(req.Params)
	if err != nil {
		return mcp.NewToolResultError("the arguments: " + err.Error()), nil
	}
	res, err := h.callRound(ctx, relay.CallerOf(ctx), rs, args, req.Params.Meta, req.Params.MultiRoundTripParams, task)
	var r *rejection
	switch {
	case errors.As(err, &r):
		return nil, r
	case err != nil:
		return mcp.NewToolResultError(err.Error()), nil
	}
	return res, nil
}

// A rejection is a JSON-RPC error a service answered a request of the
// 2026-07-28 revision with, such as a requestState that failed its
// integrity check: the client is answered with an error too, not a tool
// result, as the service itself would have.
type rejection struct{ msg string }

func (r *rejection) Error() string { return r.msg }

// rejected answers the request with the service's own JSON-RPC error: its
// code, message and data, masked, reach the client as the service sent
// them (the transport writes them in place of mcp-go's -32603, decision
// 0205); the rejection returned is what mcp-go, and a caller without a
// transport (the console), see.
func (h *callPath) rejected(ctx context.Context, service string, rej *rpc.Rejection) error {
	session.SetError(ctx, rpcError(h.masker, rej.Err))
	return &rejection{msg: h.masker.Literal(serviceError(service, rej.Err))}
}

// rpcError is an upstream's JSON-RPC error as the client may see it: the
// message and the data masked.
func rpcError(m *mask.Masker, e *rpc.RPCError) session.RPCError {
	out := session.RPCError{Code: e.Code, Message: m.Literal(e.Message)}
	if e.Data != nil {
		if b, err := json.Marshal(e.Data); err == nil {
			out.Data = m.JSON(b)
		}
	}
	return out
}

// callRound is call of the name rs resolved, with the multi-round-trip
// params of a retry, and the task a client asked for or takes (none: a
// client the hub hands no tasks).
func (h *callPath) callRound(ctx context.Context, c *relay.Caller, rs resolution, args json.RawMessage, meta *mcp.Meta, round mcp.MultiRoundTripParams, run taskRun) (*mcp.CallToolResult, error) {
	name, cat, r, t := rs.name, rs.catalog, rs.view.Reach, rs.tool
	if t == nil && r.Profile.HasTool(name) {
		if svc, why, failed := cat.FailedService(name, r); failed {
			if login := h.needsLogin(svc); login != "" {
				return mcp.NewToolResultError(fmt.Sprintf("The service %s needs a login (%s), so %s cannot be called: run `chronicle auth login %s` "+
					"(or press Log in on the hub's console), then call it again.", svc, login, name, svc)), nil
			}
			return mcp.NewToolResultError(fmt.Sprintf("The service %s could not start, so %s cannot be called: %s", svc, name, why)), nil
		}
	}
	if t == nil || !r.Services[t.Service] || !r.Profile.HasTool(exposure.FullName(t.Service, t.Name)) {
		return nil, fmt.Errorf("%w: %s", catalog.ErrNoTool, name)
	}
	if t.Blocked {
		return h.blocked(c, name, t.Service, t.Name), nil
	}
	if why := t.Hidden(); why != "" {
		return mcp.NewToolResultError(fmt.Sprintf("The tool %s of service %s %s.", t.Name, t.Service, why)), nil
	}
	run.required = t.Task
	if !t.Tasks {
		run.asked = nil
	}
	return h.forward(ctx, c, t.Service, t.Name, run, args, meta, round)
}

// A taskRun says how a call goes as a task: asked is the task a client
// asked for and the hub hands it (decision 0211); else required makes the
// hub run the task for the client and answer with its result (0210).
type taskRun struct {
	required bool
	asked    *mcp.TaskParams
	flat     bool // asked, of a 2026-07-28 client: answered in its shape
}

// blocked answers a call of a tool a policy disables, exposed under name,
// and records it as blocked.
func (h *callPath) blocked(c *relay.Caller, name, service, own string) *mcp.CallToolResult {
	h.inspector.Add(inspect.DirBlocked, c.Session, fmt.Appendf(nil, `{"tool":%q,"service":%q}`, name, service))
	return mcp.NewToolResultError(fmt.Sprintf("The tool %s of service %s is disabled by a chronicle policy.", own, service))
}

// forward sends a tools/call of the service's tool own to the service and
// returns its answer, masked: the part of the call path after the hub
// decided the call may go. task says whether it goes as a task the client
// asked for (answered with the task, decision 0211) or as one the hub
// waits for (the service offers the tool only so, decision 0210).
func (h *callPath) forward(ctx context.Context, c *relay.Caller, service, own string, task taskRun, args json.RawMessage, meta *mcp.Meta, round mcp.MultiRoundTripParams) (*mcp.CallToolResult, error) {
	b := h.settings().Backend(service)
	if b == nil {
		return mcp.NewToolResultError("the service " + service + " is no longer offered"), nil
	}
	params := wire.CallParams{Name: own, Arguments: args, MultiRoundTripParams: round}
	if meta != nil {
		m, done := h.pass.RouteProgress(c, meta)
		defer done()
		params.Meta = m
	}
	params.Task = task.asked
	body, err := params.Encode()
	if err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("%s: the call's params: %v", service, err)), nil
	}
	var raw json.RawMessage
	switch {
	case task.asked != nil:
		var res *mcp.CallToolResult
		if res, raw, err = h.startTask(ctx, c, b, service, body, task.flat); res != nil {
			return res, nil
		}
	case task.required:
		raw, err = b.RequestTask(ctx, c, body)
	default:
		raw, err = b.RequestEra(ctx, c, string(mcp.MethodToolsCall), body, own)
	}
	var rej *rpc.Rejection
	switch {
	case errors.As(err, &rej):
		return nil, h.rejected(ctx, service, rej)
	case err != nil:
		return mcp.NewToolResultError(h.masker.Literal(serviceError(service, err))), nil
	}
	// Masked as the upstream sent it (mask.JSON reads escapes).
	masked := h.masker.JSON(raw)
	if rawAnswer(ctx, masked) {
		// The transport writes the result as it is in place of the
		// placeholder mcp-go encodes (session.Reply): it is not decoded
		// and encoded again.
		session.SetResult(ctx, masked)
		return &mcp.CallToolResult{}, nil
	}
	res, err := inspect.DecodeCallToolResult(masked)
	if err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("%s: the answer to tools/call is not a tool result: %v", service, err)), nil
	}
	return res, nil
}

// arguments returns a call's arguments as the client sent them, where they
// were kept (mcp-go's RawArguments: an integer above 2^53 keeps its
// digits), else encoded; nil for none.
func arguments(p mcp.CallToolParams) (json.RawMessage, error) {
	if raw := bytes.TrimSpace(p.RawArguments); len(raw) > 0 {
		if string(raw) == "null" {
			return nil, nil
		}
		return json.RawMessage(raw), nil
	}
	if p.Arguments == nil {
		return nil, nil
	}
	return json.Marshal(p.Arguments)
}

// serviceError words an upstream's failure so that it names the service
// exactly once.
func serviceError(service string, err error) string {
	msg := err.Error()
	var refused *rpc.RPCError
	if errors.As(err, &refused) {
		msg = fmt.Sprintf("%s (JSON-RPC error %d)", refused.Message, refused.Code)
	}
	if strings.HasPrefix(msg, service+": ") {
		return msg
	}
	return service + ": " + msg
}

// rawAnswer reports whether a tool's result, masked as the upstream sent
// it, can answer the client as it is: the request has a session.Reply
// (Streamable HTTP) of a session-era client (mcp-go adds the 2026-07-28
// revision's members to a result), and the result is a plain one — an object that asks
// for no further round (resultType absent or "complete"), which mcp-go's
// server would only encode again. Otherwise it is decoded, and mcp-go
// turns an input_required result into its own requests to a session-era
// client.
func rawAnswer(ctx context.Context, result json.RawMessage) bool {
	if session.ReplyOf(ctx) == nil || server.IsModernRequest(ctx) || len(result) == 0 || result[0] != '{' {
		return false
	}
	kind, plain := "", true
	read := wire.ScanObject(result, func(key, value []byte) {
		if wire.KeyIs(key, "resultType") {
			kind, plain = wire.StringValue(value), value[0] == '"'
		}
	})
	return read && plain && (kind == "" || kind == "complete")
}

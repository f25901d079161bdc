package hub

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// Call takes a client's tools/call (m, peeked from the body as sent; what
// the call keeps of it is copied) in place of mcp-go's server, and returns
// what answers it, run on a goroutine of its own, or nil when the call is
// mcp-go's. It takes:
//   - from a stdio or HTTP+SSE client, a call that asks for a task of a
//     tool the hub hands it as one (decision 0235): mcp-go would answer it
//     from a task store of its own;
//   - from a stdio client (decision 0239), and from a session-era
//     Streamable HTTP client on the hub's stream (decision 0241), any
//     other call of a service's offered tool, leaving to mcp-go a session
//     not (yet) in a session-era revision, a meta-tool, a stand-in or a
//     tool a policy blocks, a tool offered as a task, a tool its service
//     offers only in 2026-07-28 (whose input_required result mcp-go's
//     server resolves for a session-era client), and a request the session
//     does not hold in flight (beyond its bound: it could not be
//     cancelled).
//
// The request is decoded once (its arguments kept as sent) and served as
// mcp-go's server would serve it (callHooked), with a session.Reply: a
// plain result is answered as the upstream sent it (decision 0237).
func (h *callPath) Call(ctx context.Context, cs *session.Session, m wire.Message) func() (json.RawMessage, *session.RPCError) {
	if len(m.ID) == 0 || !m.Is(mcp.MethodToolsCall) || cs == nil || cs.ClientSession() == nil {
		return nil
	}
	p, ok := wire.ReadCallParams(m.Params)
	var id any
	if !ok || json.Unmarshal(m.ID, &id) != nil {
		return nil
	}
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: p.Name, Meta: p.Meta, Task: p.Task, MultiRoundTripParams: p.MultiRoundTripParams, RawArguments: p.Arguments}}
	ctx = h.enter(ctx, cs)
	h.lister.Catalog(ctx)
	cat, v := h.scopes.View(ctx)
	t := cat.Tools[p.Name]
	if p.Task != nil && !offered(t, v) || p.Task == nil && !h.takesPlain(ctx, m, t) {
		return nil
	}
	ctx, cancel := context.WithCancel(session.WithReply(ctx, new(session.Reply)))
	if !cs.OnCancel(m.ID, cancel) && p.Task == nil {
		cancel()
		return nil
	}
	return func() (json.RawMessage, *session.RPCError) {
		defer cancel()
		return h.callHooked(ctx, id, t.Exposed, &req)
	}
}

// takesPlain reports whether Call takes a call of t that asks for no task:
// in a session-era revision, of a service's offered tool that mcp-go's
// server would serve no differently.
func (h *callPath) takesPlain(ctx context.Context, m wire.Message, t *catalog.Tool) bool {
	if bytes.Contains(m.Param("_meta"), []byte(`"io.modelcontextprotocol/`)) {
		return false // a 2026-07-28 request's protocol members: mcp-go reads them
	}
	if v := server.RequestProtocolVersion(ctx); v == "" || mcp.IsModernProtocol(v) {
		return false
	}
	if t == nil || t.Blocked || t.Task || t.Tasks || len(h.toolFilter(ctx, []mcp.Tool{t.Tool})) == 0 {
		return false
	}
	b := h.settings().Backend(t.Service)
	return b != nil && !b.ModernOnly(string(mcp.MethodToolsCall), t.Name)
}

// callHooked serves a tools/call as mcp-go's server does around the
// hub's handler: the hooks before it, a panic recovered as mcp-go's
// recovery does, the hooks after it, and the answer — the Reply's result
// or error where the call path left one, else the handler's.
func (h *callPath) callHooked(ctx context.Context, id any, exposed string, req *mcp.CallToolRequest) (json.RawMessage, *session.RPCError) {
	for _, f := range h.hooked.OnBeforeAny {
		f(ctx, id, mcp.MethodToolsCall, req)
	}
	for _, f := range h.hooked.OnBeforeCallTool {
		f(ctx, id, req)
	}
	res, err := h.recovered(ctx, exposed, *req)
	rep := session.ReplyOf(ctx)
	if err != nil {
		failed := fmt.Errorf("request error: %w", err) // as mcp-go hands its hooks a handler's error
		for _, f := range h.hooked.OnError {
			f(ctx, id, mcp.MethodToolsCall, req, failed)
		}
		e, _ := rep.Error()
		return nil, &session.RPCError{Code: cmp.Or(e.Code, mcp.INTERNAL_ERROR), Message: cmp.Or(e.Message, err.Error()), Data: e.Data}
	}
	for _, f := range h.hooked.OnSuccess {
		f(ctx, id, mcp.MethodToolsCall, req, res)
	}
	for _, f := range h.hooked.OnAfterCallTool {
		f(ctx, id, req, res)
	}
	if raw := rep.Result(); raw != nil {
		return raw, nil
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, &session.RPCError{Code: mcp.INTERNAL_ERROR, Message: err.Error()}
	}
	return b, nil
}

// recovered runs the tool handler, a panic turned into the error mcp-go's
// recovery middleware (server.WithRecovery) makes of it.
func (h *callPath) recovered(ctx context.Context, exposed string, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("panic recovered in %s tool handler: %v", req.Params.Name, r)
		}
	}()
	return h.serveCall(ctx, exposed, req)
}

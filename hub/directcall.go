package hub

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// Call takes a client's tools/call (m, peeked from the body as sent; what
// the call keeps of it is copied) in place of mcp-go's server, and returns
// what answers it, or nil when the call is mcp-go's. It takes:
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
// plain result is answered as the upstream sent it (decision 0237). The
// answer may run where the request arrived unless detach says its service
// may end the call's stream before it (Backend.Polls, decision 0248).
func (h *callPath) Call(ctx context.Context, cs *session.Session, m wire.Message) (answer func() (json.RawMessage, *session.RPCError), detach bool) {
	if len(m.ID) == 0 || !m.Is(mcp.MethodToolsCall) || cs == nil || cs.ClientSession() == nil {
		return nil, false
	}
	p, ok := wire.ReadCallParams(m.Params)
	if !ok {
		return nil, false
	}
	// The hooks and the inspector see the id as it was sent (valid JSON:
	// Peek read it), kept past the body's buffer.
	id := json.RawMessage(bytes.Clone(m.ID))
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: p.Name, Meta: p.Meta, Task: p.Task, MultiRoundTripParams: p.MultiRoundTripParams, RawArguments: p.Arguments}}
	ctx = h.enter(ctx, cs)
	res := h.resolve(ctx, p.Name)
	t := res.tool
	if t == nil {
		return nil, false
	}
	b := h.settings().Backend(t.Service)
	if b == nil || p.Task != nil && !offered(t, res.view) || p.Task == nil && !h.takesPlain(ctx, m, p, res, b) {
		return nil, false
	}
	ctx, cancel := context.WithCancel(session.WithReply(ctx, new(session.Reply)))
	if !cs.OnCancel(m.ID, cancel) && p.Task == nil {
		cancel()
		return nil, false
	}
	return func() (json.RawMessage, *session.RPCError) {
		defer cancel()
		return h.callHooked(ctx, id, res, &req)
	}, b.Polls()
}

// takesPlain reports whether Call takes a call that asks for no task: in
// a session-era revision, of a service's offered tool (res.tool, served by
// b) that mcp-go's server would serve no differently.
func (h *callPath) takesPlain(ctx context.Context, m wire.Message, p wire.CallParams, res resolution, b relay.Backend) bool {
	t := res.tool
	if p.Meta != nil && bytes.Contains(m.Param("_meta"), []byte(`"io.modelcontextprotocol/`)) {
		return false // a 2026-07-28 request's protocol members: mcp-go reads them
	}
	if v := server.RequestProtocolVersion(ctx); v == "" || mcp.IsModernProtocol(v) {
		return false
	}
	if t.Blocked || t.Task || t.Tasks || !h.passes(res.catalog, res.view, t.Exposed, true) {
		return false
	}
	return !b.ModernOnly(string(mcp.MethodToolsCall), t.Name)
}

// callHooked serves a tools/call of the tool res resolved as mcp-go's
// server does around the hub's handler: the hooks before it, a panic
// recovered as mcp-go's recovery does, the hooks after it, and the answer
// — the Reply's result or error where the call path left one, else the
// handler's. The BeforeCallTool hooks are not run: they prepare mcp-go's
// lookup of a name the catalogue lacks (a stand-in, an unlisted name),
// and res names a tool of the catalogue.
func (h *callPath) callHooked(ctx context.Context, id json.RawMessage, rs resolution, req *mcp.CallToolRequest) (json.RawMessage, *session.RPCError) {
	for _, f := range h.hooked.OnBeforeAny {
		f(ctx, id, mcp.MethodToolsCall, req)
	}
	res, err := h.recovered(ctx, rs, *req)
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
func (h *callPath) recovered(ctx context.Context, rs resolution, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("panic recovered in %s tool handler: %v", req.Params.Name, r)
		}
	}()
	return h.serveResolved(ctx, rs, req)
}

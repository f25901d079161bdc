package hub

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// Call takes a stdio client's tools/call (m, peeked from the body as sent,
// which the transport keeps) in place of mcp-go's server (Core.Call,
// decision 0239): the request decoded once, the same hooks, filter and
// handler mcp-go would run, and the upstream's result answered as it came
// (decision 0237). It returns what answers the call, run on a goroutine of
// its own, or nil when the call is mcp-go's: a session not (yet) in a
// session-era revision, a tool that is not a service's offered one (a
// meta-tool, a stand-in, one a policy blocks), a tool offered as a task, a
// call that asks for a task, a tool its service offers only in 2026-07-28
// (whose input_required result mcp-go's server resolves for a session-era
// client), and a request the session does not hold in flight (beyond its
// bound: it could not be cancelled).
func (h *callPath) Call(ctx context.Context, cs *session.Session, m wire.Message) func() (json.RawMessage, *session.RPCError) {
	if len(m.ID) == 0 || !m.Is(mcp.MethodToolsCall) || cs == nil || cs.ClientSession() == nil {
		return nil
	}
	if meta := m.Param("_meta"); bytes.Contains(meta, []byte(`"io.modelcontextprotocol/`)) {
		return nil // a 2026-07-28 request's protocol members: mcp-go reads them
	}
	ctx = h.enter(ctx, cs)
	if v := server.RequestProtocolVersion(ctx); v == "" || mcp.IsModernProtocol(v) {
		return nil
	}
	// The params as mcp-go's decode reads them, but the arguments kept as
	// sent (the call path passes them on so, arguments) and not decoded.
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      *mcp.Meta       `json:"_meta,omitempty"`
		Task      *mcp.TaskParams `json:"task,omitempty"`
		mcp.MultiRoundTripParams
	}
	if json.Unmarshal(m.Params, &p) != nil || p.Task != nil {
		return nil
	}
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: p.Name, Meta: p.Meta, MultiRoundTripParams: p.MultiRoundTripParams, RawArguments: p.Arguments}}
	var id any
	if json.Unmarshal(m.ID, &id) != nil {
		return nil
	}
	h.lister.Catalog(ctx)
	cat, _ := h.scopes.View(ctx)
	t := cat.Tools[req.Params.Name]
	if t == nil || t.Blocked || t.Task || t.Tasks || len(h.toolFilter(ctx, []mcp.Tool{t.Tool})) == 0 {
		return nil
	}
	if b := h.settings().Backend(t.Service); b == nil || b.ModernOnly(string(mcp.MethodToolsCall), t.Name) {
		return nil
	}
	ctx, cancel := context.WithCancel(session.WithReply(ctx, new(session.Reply)))
	if !cs.OnCancel(m.ID, cancel) {
		cancel()
		return nil // not in flight, so not cancellable here: mcp-go's
	}
	return func() (json.RawMessage, *session.RPCError) {
		defer cancel()
		return h.callHooked(ctx, id, t.Exposed, &req)
	}
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

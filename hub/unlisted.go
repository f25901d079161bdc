package hub

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/relay"
)

// A service endpoint serves one service as if the client talked to the
// server itself (decision 0160). A tools/call there of a name the service
// did not list goes to the service, which answers it as it would directly
// — a tool error, a JSON-RPC error, or the result of a tool it offers
// without listing it — rather than mcp-go answering "tool not found" under
// the hub's exposed name, which the client never used (decision 0210).
// Scope, the profile and the service's policy apply to the name as to a
// listed tool. As a stand-in (unavailable.go), the tool is put under the
// called name just before mcp-go looks it up, is never listed, and the
// next catalogue drops it.

// unlisted puts a tool under the called name when the request came to a
// service endpoint and names no tool of the catalogue but a name of that
// service.
func (h *callPath) unlisted(ctx context.Context, name string) {
	service := h.scopes.Where(ctx).Service
	if service == "" || isMetaTool(name) {
		return
	}
	cat, v := h.scopes.View(ctx)
	own, ok := cat.Unlisted(service, name)
	if !ok || !v.Reach.Services[service] {
		return
	}
	h.srv.AddTool(mcp.NewTool(name, mcp.WithDescription("A name the service did not list.")), h.unlistedHandler(name, service, own))
}

// calledUnlisted reports whether the request calls name, a name its
// service endpoint's service did not list: the filter lets it reach
// unlistedHandler, and lists it nowhere.
func (h *callPath) calledUnlisted(ctx context.Context, cat *catalog.Catalog, name string) bool {
	service := h.scopes.Where(ctx).Service
	if service == "" {
		return false
	}
	_, ok := cat.Unlisted(service, name)
	return ok
}

// unlistedHandler forwards a call of own, a name service did not list, to
// the service under the same rules as a listed tool's call.
func (h *callPath) unlistedHandler(name, service, own string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c := relay.CallerOf(ctx)
		cat, v := h.scopes.View(ctx)
		if _, ok := cat.Unlisted(service, name); !ok || h.scopes.Where(ctx).Service != service ||
			!v.Reach.Services[service] || !v.Reach.Profile.HasTool(exposure.FullName(service, own)) {
			return nil, fmt.Errorf("%w: %s", catalog.ErrNoTool, own)
		}
		if !catalog.ToolAllowed(h.settings().Policies[service], own) {
			return h.blocked(c, name, service, own), nil
		}
		args, err := arguments(req.Params)
		if err != nil {
			return mcp.NewToolResultError("the arguments: " + err.Error()), nil
		}
		res, err := h.forward(ctx, c, service, own, taskRun{}, args, req.Params.Meta, req.Params.MultiRoundTripParams)
		var r *rejection
		if errors.As(err, &r) {
			return nil, r
		}
		return res, err
	}
}

package hub

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
)

// servePrompt serves an MCP client's prompts/get of the exposed prompt. A
// 2026-07-28 client's request, and one for a prompt only that revision
// offers, go to the service in that revision when it speaks it: the result
// may then be input_required, and a retry brings its inputResponses and
// requestState along (as for tools/call, mcp-go asks a session-era client
// itself and retries). Other requests go as they always did.
func (h *callPath) servePrompt(ctx context.Context, exposed string, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	p := h.lister.Catalog(ctx).Prompts[exposed]
	if p == nil {
		return nil, fmt.Errorf("the prompt %s is no longer offered", exposed)
	}
	b := h.settings().Backend(p.Service)
	if b == nil {
		return nil, fmt.Errorf("the service %s is no longer offered", p.Service)
	}
	if !server.IsModernRequest(ctx) && !b.ModernOnly(string(mcp.MethodPromptsGet), p.Name) {
		res, err := b.GetPrompt(ctx, p.Name, req.Params.Arguments)
		if err != nil {
			return nil, h.masker.Err(err)
		}
		return inspect.ForClient(h.masker, res, inspect.DecodeGetPromptResult), nil
	}
	params := promptParams{Name: p.Name, Arguments: req.Params.Arguments, MultiRoundTripParams: req.Params.MultiRoundTripParams}
	raw, err := b.RequestEra(ctx, relay.CallerOf(ctx), string(mcp.MethodPromptsGet), params, p.Name)
	var rej *rpc.Rejection
	switch {
	case errors.As(err, &rej):
		return nil, h.rejected(ctx, p.Service, rej)
	case err != nil:
		return nil, h.masker.Err(err)
	}
	return inspect.DecodeGetPromptResult(h.masker.JSON(raw))
}

// promptParams are the params of a prompts/get as the hub sends it in the
// 2026-07-28 revision: the prompt's own name, the arguments, and a retry's
// inputResponses and requestState, untouched.
type promptParams struct {
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments,omitempty"`
	mcp.MultiRoundTripParams
}

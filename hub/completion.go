package hub

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/mark3labs/mcp-go/mcp"
)

// A completer routes completion/complete to the service that owns the
// prompt or resource a reference names.
type completer struct{ h *callPath }

// CompletePromptArgument completes an argument of an exposed prompt.
func (c completer) CompletePromptArgument(ctx context.Context, name string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	p := c.h.lister.Catalog(ctx).Prompts[name]
	if p == nil || !c.h.scopes.InScope(ctx, p.Service) {
		return nil, fmt.Errorf("no prompt %s in this scope", name)
	}
	return c.complete(ctx, p.Service, map[string]any{"type": "ref/prompt", "name": p.Name}, arg, cc)
}

// CompleteResourceArgument completes an argument of a resource template.
func (c completer) CompleteResourceArgument(ctx context.Context, uri string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	service := ""
	cat, vis := c.h.scopes.VisibleTo(ctx)
	if t := cat.Templates[uri]; t != nil && vis[t.Service] {
		service = t.Service
	} else {
		service = c.h.pass.ResourceService(ctx, uri)
	}
	if service == "" {
		return nil, fmt.Errorf("no resource or template %s in this scope", uri)
	}
	return c.complete(ctx, service, map[string]any{"type": "ref/resource", "uri": uri}, arg, cc)
}

func (c completer) complete(ctx context.Context, service string, ref map[string]any, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	b := c.h.settings().Backend(service)
	if b == nil {
		return nil, fmt.Errorf("the service %s is no longer offered", service)
	}
	params := map[string]any{"ref": ref, "argument": arg}
	if len(cc.Arguments) > 0 {
		params["context"] = cc
	}
	raw, err := b.Request(ctx, relay.CallerOf(ctx), string(mcp.MethodCompletionComplete), params)
	if err != nil {
		return nil, c.h.masker.Err(fmt.Errorf("%s", serviceError(service, err)))
	}
	var res struct {
		Completion mcp.Completion `json:"completion"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("%s: the answer to completion/complete does not decode: %w", service, err)
	}
	out := inspect.ForClient(c.h.masker, res.Completion, inspect.DecodeJSON[mcp.Completion])
	return &out, nil
}

package task

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/session"
)

// Send sends method for the upstream task h names, on the upstream session
// that serves c, and returns the upstream's answer masked, or the error the
// client is answered with (Router.Refusal).
func (r *Router) Send(ctx context.Context, c *relay.Caller, h Handle, method string) (json.RawMessage, *session.RPCError) {
	b := r.Backend(h.Service)
	if b == nil {
		return nil, &session.RPCError{Code: mcp.INVALID_PARAMS, Message: "the service " + h.Service + " is no longer offered"}
	}
	raw, err := b.Request(ctx, c, method, map[string]any{"taskId": h.Task})
	if err != nil {
		e := r.Refusal(h.Service, err)
		return nil, &e
	}
	return r.Masker.JSON(raw), nil
}

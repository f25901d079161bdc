package hub

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
)

// A service that could not start (a variable its env needs is not set, its
// command is missing) lists no tools, so a client calling one of them by
// name would get mcp-go's -32602 "tool not found" while the reason went only
// to the hub's stderr, which AI tools hide. Instead the call is answered
// through the one call path with the reason, as a tool error the model can
// read: just before mcp-go looks the tool up, a stand-in is put under the
// called name. Stand-ins are never listed, and the next catalogue drops
// them.

// standIn puts a stand-in under the called name when it names no tool of
// the catalogue but a tool of a service in the caller's reach that could
// not start.
func (h *callPath) standIn(ctx context.Context, name string) {
	cat, v := h.scopes.View(ctx)
	if cat.Tools[name] != nil || isMetaTool(name) {
		return
	}
	if _, _, failed := cat.FailedService(name, v.Reach); !failed {
		return
	}
	h.srv.AddTool(mcp.NewTool(name, mcp.WithDescription("A tool of a service that could not start.")), h.toolHandler(name))
}

package relay

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/hub/relay/held"
)

// A Caller is who a call is made for: an MCP client's request (its session,
// its stream and its cancellation live in ctx), or a person through the API.
// Requests an upstream makes while the call is in flight (sampling,
// elicitation, roots) go back to it.
type Caller struct {
	Ctx     context.Context
	Session string // "" for the API
	Via     string // "mcp" or "api"

	// held is the call a 2026-07-28 client's request to a session-era
	// upstream is held in, nil for any other; caps are that client's
	// capabilities (crossera.go).
	held *held.Call
	caps *mcp.ClientCapabilities
}

// CallerOf returns the caller of an MCP request.
func CallerOf(ctx context.Context) *Caller {
	return &Caller{Ctx: ctx, Session: SessionID(ctx), Via: "mcp"}
}

// SessionID returns the MCP session of a request, or "".
func SessionID(ctx context.Context) string {
	if s := server.ClientSessionFromContext(ctx); s != nil {
		return s.SessionID()
	}
	return ""
}

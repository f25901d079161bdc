package transport

import (
	"net/http"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/mark3labs/mcp-go/mcp"
)

// The outbound writer and the hub's streams write the error (or result)
// the call path left in a request's session.Reply in place of mcp-go's
// (session.Reply.Rewrite, decision 0205).

// replyOf returns the Reply of a request's context, and whether the
// request is of the 2026-07-28 revision (whose error status follows the
// code).
func replyOf(r *http.Request) (*session.Reply, bool) {
	rep := session.ReplyOf(r.Context())
	return rep, rep != nil && mcp.IsModernProtocol(r.Header.Get("MCP-Protocol-Version"))
}

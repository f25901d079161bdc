package relay

import (
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
	"github.com/mark3labs/mcp-go/mcp"
)

// One outbound filter per session sits between mcp-go and the client, on
// the stdio writer and on an SSE-aware HTTP response writer. A list_changed
// goes to every session at once (mcp-go has no per-session variant; the hub
// sends it when some session could be told, announce.go), and mcp-go
// answers a request even after the client cancelled it; the filter drops:
//
//   - a list_changed before the session's first list of that kind, and when
//     the list the session would see did not change;
//   - the response to a request the client cancelled while it was in
//     flight (MCP: a cancelled request gets no response). What the session
//     has in flight is in its clientSession; a cancel that comes after the
//     response is forgotten, so a request that reuses the id is answered.

// NoteRequest records what a client's message means for its session: a
// request is in flight until answered, a notifications/cancelled marks the
// request it names if that one is still in flight. It reports whether m is
// a request now in flight.
func NoteRequest(cs *session.Session, m wire.Message) bool {
	if !m.HasMethod() {
		return false
	}
	if len(m.ID) > 0 {
		cs.Begin(m.ID, m.CalledTool())
		return true
	}
	if m.Is(mcp.MethodNotificationCancelled) {
		if id := m.Param("requestId"); len(id) > 0 {
			cs.Cancel(id)
		}
	}
	return false
}

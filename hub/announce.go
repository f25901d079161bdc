package hub

import (
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
)

// The hub announces list changes itself. mcp-go sends every session a
// list_changed whenever the server's lists are set (when its capabilities
// say lists change), and answers a session that was ever sent a
// notification on a resumable SSE stream from then on: an encode for the
// event store and an SSE frame per answer, and a stream kept until the
// session ends (decision 0055). The hub builds its catalogue on the first
// list or call, so every session open then was upgraded for a notification
// the outbound filter dropped (it had listed nothing yet).
//
// So mcp-go's server is built without listChanged, the answers to
// initialize and server/discover declare it, and after each catalogue the
// hub sends list_changed of a kind only when some session could be told: one
// that listed that kind or is listing it now, or a 2026-07-28 listen stream.
// The outbound filter still decides per session, as before.

// listKinds are the kinds of list a session can be told changed, with the
// notification that says so.
var listKinds = []struct {
	kind   string
	method mcp.MCPMethod
}{
	{"tools", mcp.MethodNotificationToolsListChanged},
	{"prompts", mcp.MethodNotificationPromptsListChanged},
	{"resources", mcp.MethodNotificationResourcesListChanged},
}

// A listWatch counts what may need a list_changed: lists in flight per
// kind, and open listen streams.
type listWatch struct {
	listing   [3]atomic.Int32 // by index in listKinds
	listeners atomic.Int32
}

// listKindOf returns the index in listKinds of what a list request lists.
func listKindOf(method mcp.MCPMethod) (int, bool) {
	switch method {
	case mcp.MethodToolsList:
		return 0, true
	case mcp.MethodPromptsList:
		return 1, true
	case mcp.MethodResourcesList:
		return 2, true
	}
	return 0, false
}

// declareListChanged says in capabilities what the hub announces.
func declareListChanged(c *mcp.ServerCapabilities) {
	if c.Tools != nil {
		c.Tools.ListChanged = true
	}
	if c.Prompts != nil {
		c.Prompts.ListChanged = true
	}
	if c.Resources != nil {
		c.Resources.ListChanged = true
	}
}

// announceLists tells the sessions that may care that the lists changed;
// each session's filter drops what does not concern it.
func (h *Hub) announceLists() {
	for i, k := range listKinds {
		if h.lists.listeners.Load() > 0 || h.lists.listing[i].Load() > 0 || h.anyListed(k.kind) {
			h.srv.SendNotificationToAllClients(string(k.method), nil)
		}
	}
}

// anyListed reports whether a session has listed kind.
func (h *Hub) anyListed(kind string) bool {
	for _, cs := range h.clients.List() {
		if _, listed := cs.LastListed(kind); listed {
			return true
		}
	}
	return false
}

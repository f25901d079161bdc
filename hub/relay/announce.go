package relay

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"sync/atomic"

	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/listing"
	"github.com/chronicle-dev/chronicle/hub/search"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
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

// An Announcer decides which list changes reach which session: it tells
// the sessions that may care that the lists changed (announce), and the
// outbound filter of each session (keep) lets a list_changed through only
// when the list that session would see now differs from the one it got. It
// counts what may need a list_changed: lists in flight per kind, and open
// listen streams.
type Announcer struct {
	Listing   [3]atomic.Int32 // by index in listKinds
	Listeners atomic.Int32

	Server *server.MCPServer // set once the hub made it
	// Listen is the server of the 2026-07-28 listen streams (see Announce).
	Listen  *server.MCPServer
	Clients *session.Registry
	Lister  *listing.Lister
	Scopes  *Scopes
}

// ListKindOf returns the index in listKinds of what a list request lists.
func ListKindOf(method mcp.MCPMethod) (int, bool) {
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

// DeclareListChanged says in capabilities what the hub announces.
func DeclareListChanged(c *mcp.ServerCapabilities) {
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

// Announce tells the sessions that may care that the lists changed;
// each session's filter drops what does not concern it. The open
// 2026-07-28 listen streams are told every time: that revision keeps no
// record of what a client listed, so a catalogue built anew may hold a
// list it has not seen. They are served by a server of their own, Listen,
// built with listChanged so that mcp-go grants what a stream asks for
// (the hub's server is built without it, see above; decision 0205);
// mcp-go delivers each kind to the streams that asked for it.
func (a *Announcer) Announce() {
	listening := a.Listeners.Load() > 0
	for i, k := range listKinds {
		if a.Listen == nil && listening || a.Listing[i].Load() > 0 || a.anyListed(k.kind) {
			a.Server.SendNotificationToAllClients(string(k.method), nil)
		}
		if a.Listen != nil && listening {
			a.Listen.SendNotificationToAllClients(string(k.method), nil)
		}
	}
}

// NewListenServer returns the MCP server that serves the 2026-07-28
// listen streams: it declares that every kind of list changes (so mcp-go
// grants them), and holds no list, so that it never announces anything of
// its own accord. Resource subscriptions are not granted on a listen
// stream: the hub does not pass them on for a client without a session.
func NewListenServer(version string) *server.MCPServer {
	return server.NewMCPServer("chronicle", version,
		server.WithToolCapabilities(true),
		server.WithPromptCapabilities(true),
		server.WithResourceCapabilities(false, true),
	)
}

// anyListed reports whether a session has listed kind.
func (a *Announcer) anyListed(kind string) bool {
	for _, cs := range a.Clients.List() {
		if _, listed := cs.LastListed(kind); listed {
			return true
		}
	}
	return false
}

// ListHash sums the list of a kind a session made at w would get now, so
// that the outbound filter can tell whether it changed.
func (a *Announcer) ListHash(kind string, w catalog.Where) string {
	cat := a.Lister.Built()
	if cat == nil {
		return ""
	}
	r := a.Scopes.Reach(w)
	vis := r.Services
	var sums []string
	switch kind {
	case "tools":
		v := cat.ViewIn(r, a.Scopes.DecideAuto)
		if v.ListsMeta() {
			for _, m := range search.MetaTools() {
				sums = append(sums, listedSum(m))
			}
		}
		for _, t := range v.Offered {
			switch {
			case !v.Listed[t.Exposed]:
			case r.Service != "":
				sums = append(sums, listedSum(ownTool(t.Service, t.Tool, t.Name)))
			default:
				sums = append(sums, t.Sum)
			}
		}
	case "prompts":
		for _, p := range cat.SortedPrompts() {
			switch {
			case !vis[p.Service]:
			case r.Service != "":
				sums = append(sums, catalog.Sum(ownPrompt(p.Service, p.Prompt, p.Name)))
			default:
				sums = append(sums, p.Sum)
			}
		}
	case "resources":
		for _, r := range cat.SortedResources() {
			if vis[r.Service] {
				sums = append(sums, r.Sum)
			}
		}
	}
	return sumOfSums(sums)
}

// Keep decides whether one outbound JSON-RPC message reaches the session.
func (a *Announcer) Keep(sid string, msg []byte) bool {
	return a.KeepPeeked(a.Clients.Get(sid), wire.Peek(msg))
}

// KeepPeeked decides for a message already peeked at; cs is nil for a
// session the hub does not know (it ended, or there is none).
func (a *Announcer) KeepPeeked(cs *session.Session, m wire.Message) bool {
	if kind, ok := m.ListKind(); ok {
		if cs == nil {
			return false
		}
		last, listed := cs.LastListed(kind)
		if !listed {
			return false // never listed: nothing it saw changed
		}
		return a.ListHash(kind, a.Scopes.WhereOfSession(cs)) != last
	}
	if !m.HasMethod() && len(m.ID) > 0 && cs != nil {
		return !cs.Answered(m.ID)
	}
	return true
}

// listedSum identifies a listed tool for listHash: by its definition, but a
// meta-tool by its name alone, since its definition varies with the
// client's revision and never with the catalogue.
func listedSum(t mcp.Tool) string {
	if search.IsMetaTool(t.Name) {
		return "meta:" + t.Name
	}
	return catalog.Sum(t)
}

// SumTools sums a tool list as a client got it, in the same way as listHash.
func SumTools(tools []mcp.Tool) string {
	sums := make([]string, len(tools))
	for i, t := range tools {
		sums[i] = listedSum(t)
	}
	return sumOfSums(sums)
}

// SumList sums a list as a client got it, in the same way as listHash.
func SumList[T any](items []T) string {
	sums := make([]string, len(items))
	for i, it := range items {
		sums[i] = catalog.Sum(it)
	}
	sort.Strings(sums)
	return sumOfSums(sums)
}

func sumOfSums(sums []string) string {
	sort.Strings(sums)
	h := sha256.New()
	for _, s := range sums {
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil))
}

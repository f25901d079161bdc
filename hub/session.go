package hub

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/session"
)

// toolFilter lists what the request's endpoint lists (its view): the
// meta-tools in search mode, and the offered tools the mode lists — tools
// of services in scope and in the endpoint's profile, not disabled by a
// policy. A call reaches its handler through this filter too (mcp-go
// filters the called tool): a call to a disabled tool is let through so
// that the handler refuses it with a tool error and logs it as blocked,
// and so is a call to an offered tool that search mode does not list.
// Each tool is decided on its own, by whether this request calls it: how
// many tools mcp-go hands the filter at once decides nothing (decision
// 0190).
func (h *callPath) toolFilter(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
	cat, v := h.scopes.View(ctx)
	calls := h.callsOf(ctx)
	out := make([]mcp.Tool, 0, len(tools))
	for _, t := range tools {
		if isMetaTool(t.Name) {
			if v.ListsMeta() {
				out = append(out, metaToolFor(ctx, t))
			}
			continue
		}
		if h.passes(cat, v, t.Name, calls(t.Name)) || (calls(t.Name) && h.calledUnlisted(ctx, cat, t.Name)) {
			out = append(out, t)
		}
	}
	return out
}

// passes reports whether the tool named name is in the view; called is set
// when the request calls it.
func (h *callPath) passes(cat *catalog.Catalog, v *catalog.View, name string, called bool) bool {
	e := cat.Tools[name]
	if e == nil {
		// A call of a tool of a service that could not start reaches
		// its stand-in, which says why (unavailable.go).
		_, _, failed := cat.FailedService(name, v.Reach)
		return called && failed && v.Reach.Profile.HasTool(name)
	}
	if !v.Reach.Services[e.Service] || e.Hidden() != "" {
		return false
	}
	if e.Blocked {
		return called && v.Reach.Profile.HasTool(exposure.FullName(e.Service, e.Name))
	}
	return v.Listed[name] || (called && v.Offers[name])
}

func (h *callPath) promptFilter(ctx context.Context, prompts []mcp.Prompt) []mcp.Prompt {
	cat, vis := h.scopes.VisibleTo(ctx)
	out := make([]mcp.Prompt, 0, len(prompts))
	for _, p := range prompts {
		if e := cat.Prompts[p.Name]; e != nil && vis[e.Service] {
			out = append(out, p)
		}
	}
	return out
}

// callsOf returns whether the request calls a tool: HTTP carries the
// called tool in the request's context; stdio has no context per request,
// so its session's calls in flight stand in for it (a list the session
// sends while it calls a tool may then show that tool, which the session
// knows already; the handler still refuses what policy disables).
func (h *callPath) callsOf(ctx context.Context) func(name string) bool {
	if n, ok := session.CallingOf(ctx); ok {
		return func(name string) bool { return name == n }
	}
	if cs := h.sessions.Of(ctx); cs != nil {
		return cs.Calling
	}
	return func(string) bool { return false }
}

// hooks wire the inspector, the lazy catalogue and session roots into mcp-go.
func (h *callPath) hooks() *server.Hooks {
	hk := &server.Hooks{}
	// The inspector encodes what it keeps when it is read (AddLazy).
	hk.AddBeforeAny(func(ctx context.Context, id any, method mcp.MCPMethod, message any) {
		if i, ok := relay.ListKindOf(method); ok {
			h.lists.Listing[i].Add(1) // until the list is recorded (AfterList*) or failed
		}
		h.inspector.AddLazy(inspect.DirRecv, relay.SessionID(ctx), func() []byte {
			b, _ := json.Marshal(map[string]any{"id": id, "method": method, "params": paramsOf(message)})
			return b
		})
		switch method {
		case mcp.MethodToolsList, mcp.MethodToolsCall, mcp.MethodPromptsList, mcp.MethodPromptsGet,
			mcp.MethodResourcesList, mcp.MethodResourcesRead:
			h.lister.Catalog(ctx)
		}
	})
	hk.AddBeforeCallTool(func(ctx context.Context, _ any, req *mcp.CallToolRequest) {
		h.standIn(ctx, req.Params.Name)  // unavailable.go
		h.unlisted(ctx, req.Params.Name) // unlisted.go
	})
	hk.AddOnSuccess(func(ctx context.Context, id any, method mcp.MCPMethod, message any, result any) {
		switch method {
		case mcp.MethodInitialize, mcp.MethodServerDiscover:
			return // recorded by their After hooks, which change the result first
		}
		h.recordResult(ctx, id, result)
	})
	hk.AddOnError(func(ctx context.Context, id any, method mcp.MCPMethod, message any, err error) {
		if i, ok := relay.ListKindOf(method); ok {
			h.lists.Listing[i].Add(-1)
		}
		if method == mcp.MethodResourcesRead && errors.Is(err, server.ErrResourceNotFound) {
			// SEP-2164: the error names the URI not found in its data
			// (mcp-go's has none; the transport writes it in, reply.go).
			if req, ok := message.(*mcp.ReadResourceRequest); ok {
				data, _ := json.Marshal(map[string]string{"uri": req.Params.URI})
				session.SetError(ctx, session.RPCError{Data: data})
			}
		}
		msg := err.Error()
		h.inspector.AddLazy(inspect.DirSend, relay.SessionID(ctx), func() []byte {
			b, _ := json.Marshal(map[string]any{"id": id, "error": msg})
			return b
		})
	})
	hk.AddAfterInitialize(func(ctx context.Context, id any, req *mcp.InitializeRequest, res *mcp.InitializeResult) {
		relay.DeclareListChanged(&res.Capabilities)
		h.declareTasks(ctx, res)
		h.recordResult(ctx, id, res)
		h.sessions.Initialize(ctx, req)
	})
	// What a session listed is summed from the answer it got when the
	// answer is the whole list (so a list served while the catalogue was
	// being replaced counts as what it was), else from the catalogue.
	hk.AddAfterListTools(func(ctx context.Context, _ any, req *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
		w := h.scopes.Where(ctx)
		if w.Service != "" {
			relay.OwnToolNames(h.lister.Current(), w.Service, res.Tools)
		}
		hash := h.lists.ListHash("tools", w)
		if req.Params.Cursor == "" && res.NextCursor == "" {
			hash = relay.SumTools(res.Tools)
		}
		if cs := h.sessions.Of(ctx); cs != nil {
			cs.Listed("tools", hash)
		}
		// After the sum: what a session listed is compared with the
		// catalogue's sums, which carry no execution.taskSupport.
		h.listTaskSupport(ctx, res.Tools, func(name string) string {
			if w.Service != "" {
				return catalog.ExposedName(w.Service, name)
			}
			return name
		})
		h.lists.Listing[0].Add(-1)
	})
	hk.AddAfterListPrompts(func(ctx context.Context, _ any, req *mcp.ListPromptsRequest, res *mcp.ListPromptsResult) {
		w := h.scopes.Where(ctx)
		if w.Service != "" {
			relay.OwnPromptNames(h.lister.Current(), w.Service, res.Prompts)
		}
		hash := h.lists.ListHash("prompts", w)
		if req.Params.Cursor == "" && res.NextCursor == "" {
			hash = relay.SumList(res.Prompts)
		}
		if cs := h.sessions.Of(ctx); cs != nil {
			cs.Listed("prompts", hash)
		}
		h.lists.Listing[1].Add(-1)
	})
	hk.AddAfterListResources(func(ctx context.Context, _ any, req *mcp.ListResourcesRequest, res *mcp.ListResourcesResult) {
		hash := h.lists.ListHash("resources", h.scopes.Where(ctx))
		if req.Params.Cursor == "" && res.NextCursor == "" {
			hash = relay.SumList(res.Resources)
		}
		if cs := h.sessions.Of(ctx); cs != nil {
			cs.Listed("resources", hash)
		}
		h.lists.Listing[2].Add(-1)
	})
	hk.AddAfterDiscover(func(ctx context.Context, id any, _ *mcp.DiscoverRequest, res *mcp.DiscoverResult) {
		relay.DeclareListChanged(&res.Capabilities)
		h.declareExtension(ctx, &res.Capabilities)
		h.recordResult(ctx, id, res)
	})
	hk.AddAfterSetLevel(func(ctx context.Context, _ any, req *mcp.SetLevelRequest, _ *mcp.EmptyResult) {
		h.pass.SetLevel(relay.SessionID(ctx), req.Params.Level)
	})
	hk.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		h.pass.Subscribe(ctx, relay.SessionID(ctx), req.Params.URI, true)
	})
	hk.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		h.pass.Subscribe(ctx, relay.SessionID(ctx), req.Params.URI, false)
	})
	// A session's entry lives as long as mcp-go's session (clientsession.go).
	hk.AddOnRegisterSession(h.sessions.Registered)
	hk.AddOnUnregisterSession(h.sessions.Unregistered)
	return hk
}

// recordResult keeps a result sent to a session in the inspector, encoded
// when the record is sealed: nothing may change result after this.
func (h *callPath) recordResult(ctx context.Context, id, result any) {
	if rep := session.ReplyOf(ctx); rep != nil {
		if raw := rep.Result(); raw != nil {
			result = raw // what the client is answered, not mcp-go's placeholder
		}
	}
	h.inspector.AddLazy(inspect.DirSend, relay.SessionID(ctx), func() []byte {
		b, _ := json.Marshal(map[string]any{"id": id, "result": result})
		return b
	})
}

func paramsOf(message any) any {
	b, err := json.Marshal(message)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m["params"]
}

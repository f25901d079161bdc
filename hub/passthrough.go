package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/hub/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// What upstreams send back through the hub: progress to the client that
// asked for it, log messages to every session that may see the service at
// the level it asked for, resources/updated to the sessions subscribed, and
// requests (sampling, elicitation, roots) to the client of the call in
// flight.

// passThrough is the hub's state for what flows back from upstreams.
type passThrough struct {
	progress sync.Map // hub progress token → progressRoute

	subMu  sync.Mutex
	subs   map[string]map[string]bool  // URI → subscribed session ids
	levels map[string]mcp.LoggingLevel // session → level it asked for
}

// upstreamNotified handles a notification from an upstream.
func (h *Hub) upstreamNotified(service string, n mcp.JSONRPCNotification) {
	params := inspect.ForClient(h.masker, n.Params.AdditionalFields, inspect.DecodeJSON[map[string]any])
	switch mcp.MCPMethod(n.Method) {
	case mcp.MethodNotificationProgress:
		token := fmt.Sprint(params["progressToken"])
		r, ok := h.progress.Load(token)
		if !ok {
			return
		}
		route := r.(progressRoute)
		params["progressToken"] = route.token
		h.recordForward(route.caller.session, n.Method, params)
		if route.caller.session == transport.StdioSession && h.transport.NotifyStdio(n.Method, params) {
			return
		}
		_ = h.srv.SendNotificationToClient(route.caller.ctx, n.Method, params)
	case mcp.MethodNotificationMessage:
		h.forwardLog(service, params)
	case mcp.MethodNotificationResourceUpdated:
		uri, _ := params["uri"].(string)
		h.subMu.Lock()
		var sessions []string
		for sid := range h.subs[uri] {
			sessions = append(sessions, sid)
		}
		h.subMu.Unlock()
		for _, sid := range sessions {
			h.recordForward(sid, n.Method, params)
			_ = h.srv.SendNotificationToSpecificClient(sid, n.Method, params)
		}
	}
}

// forwardLog passes an upstream's log message to every session that may
// see the service, with the logger prefixed by the service's name; mcp-go
// drops it for a session whose level is higher.
func (h *Hub) forwardLog(service string, params map[string]any) {
	logger, _ := params["logger"].(string)
	if logger == "" {
		logger = service
	} else {
		logger = service + "/" + logger
	}
	level, _ := params["level"].(string)
	note := mcp.LoggingMessageNotification{}
	note.Method = string(mcp.MethodNotificationMessage)
	note.Params.Level = mcp.LoggingLevel(level)
	note.Params.Logger = logger
	note.Params.Data = params["data"]
	for _, cs := range h.clients.List() {
		if h.scopes.reach(h.scopes.whereOfSession(cs)).Services[service] {
			_ = h.srv.SendLogMessageToSpecificClient(cs.ID(), note)
		}
	}
}

// setLevel records the level a session asked for and gives every upstream
// the lowest any session asked for (messages are then filtered per
// session).
func (h *Hub) setLevel(sid string, level mcp.LoggingLevel) {
	h.subMu.Lock()
	if h.levels == nil {
		h.levels = map[string]mcp.LoggingLevel{}
	}
	h.levels[sid] = level
	lowest := lowestLevel(h.levels)
	h.subMu.Unlock()
	// Only upstreams have a level to set: the services chronicle runs in
	// process (the Chronova bridge) log nothing to pass on.
	for _, st := range h.pool.status() {
		name, b := st.Name, h.pool.backend(st.Name)
		h.life.goTracked(func() {
			ctx, cancel := context.WithTimeout(h.life.ctx, h.opts.ListTimeout)
			defer cancel()
			if _, err := b.Request(ctx, nil, string(mcp.MethodSetLogLevel), map[string]any{"level": lowest}); err != nil {
				h.inspector.Note("", name+" did not take the log level "+string(lowest)+": "+err.Error())
			}
		})
	}
}

// logOrder is the severity of each level, lowest first.
var logOrder = []mcp.LoggingLevel{
	mcp.LoggingLevelDebug, mcp.LoggingLevelInfo, mcp.LoggingLevelNotice, mcp.LoggingLevelWarning,
	mcp.LoggingLevelError, mcp.LoggingLevelCritical, mcp.LoggingLevelAlert, mcp.LoggingLevelEmergency,
}

func lowestLevel(levels map[string]mcp.LoggingLevel) mcp.LoggingLevel {
	best := len(logOrder) - 1
	for _, l := range levels {
		for i, o := range logOrder {
			if o == l && i < best {
				best = i
			}
		}
	}
	return logOrder[best]
}

// subscribe routes resources/subscribe to the service that serves uri,
// once per URI however many sessions subscribe.
func (h *Hub) subscribe(ctx context.Context, sid, uri string, on bool) {
	service := h.resourceService(ctx, uri)
	if service == "" {
		return
	}
	h.subMu.Lock()
	if h.subs == nil {
		h.subs = map[string]map[string]bool{}
	}
	set := h.subs[uri]
	before := len(set)
	if on {
		if set == nil {
			set = map[string]bool{}
			h.subs[uri] = set
		}
		set[sid] = true
	} else {
		delete(set, sid)
		if len(set) == 0 {
			delete(h.subs, uri)
		}
	}
	after := len(set)
	h.subMu.Unlock()
	method := ""
	switch {
	case before == 0 && after == 1:
		method = string(mcp.MethodResourcesSubscribe)
	case before == 1 && after == 0:
		method = string(mcp.MethodResourcesUnsubscribe)
	default:
		return
	}
	if b := h.settings().backend(service); b != nil {
		if _, err := b.Request(ctx, nil, method, map[string]any{"uri": uri}); err != nil {
			h.inspector.Note(sid, service+": "+method+" "+uri+": "+err.Error())
		}
	}
}

// dropSession forgets a session's subscriptions and log level.
func (h *Hub) dropSession(sid string) {
	h.subMu.Lock()
	var uris []string
	for uri, set := range h.subs {
		if set[sid] {
			uris = append(uris, uri)
		}
	}
	delete(h.levels, sid)
	h.subMu.Unlock()
	sort.Strings(uris)
	for _, uri := range uris {
		h.subscribe(h.life.ctx, sid, uri, false)
	}
}

// resourceService returns the service that serves uri for the request's
// session: the resource's, or the first template's that matches.
func (h *Hub) resourceService(ctx context.Context, uri string) string {
	cat, vis := h.scopes.visibleTo(ctx)
	if r := cat.Resources[uri]; r != nil && vis[r.Service] {
		return r.Service
	}
	keys := make([]string, 0, len(cat.Templates))
	for k := range cat.Templates {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t := cat.Templates[k]
		if vis[t.Service] && t.Template.URITemplate != nil && t.Template.URITemplate.Regexp().MatchString(uri) {
			return t.Service
		}
	}
	return ""
}

// upstreamAsks answers a request an upstream made while a client's call
// was in flight, by asking that client; a roots/list outside any call gets
// the scope the upstream serves.
func (h *Hub) upstreamAsks(ctx context.Context, service string, who any, method string, params json.RawMessage) (json.RawMessage, error) {
	c, _ := who.(*caller)
	if c == nil {
		return json.Marshal(mcp.ListRootsResult{Roots: h.scopeRoots(service)})
	}
	if c.session == "" {
		return nil, fmt.Errorf("the call to %s came through the hub's API, which has no client to ask for %s", service, method)
	}
	h.recordForward(c.session, method, json.RawMessage(params))
	var res any
	var err error
	switch mcp.MCPMethod(method) {
	case mcp.MethodSamplingCreateMessage:
		var req mcp.CreateMessageRequest
		if err = json.Unmarshal(params, &req.CreateMessageParams); err == nil {
			for i := range req.Messages {
				if req.Messages[i].Content, err = mcp.ParseSamplingContent(req.Messages[i].Content); err != nil {
					break
				}
			}
		}
		if err == nil {
			//lint:ignore SA1019 deprecated only for 2026-07-28; the session revisions still use it
			res, err = h.srv.RequestSampling(c.ctx, req)
		}
	case mcp.MethodElicitationCreate:
		var req mcp.ElicitationRequest
		if err = json.Unmarshal(params, &req.Params); err == nil {
			res, err = h.srv.RequestElicitation(c.ctx, req)
		}
	case mcp.MethodListRoots:
		if s := server.ClientSessionFromContext(c.ctx); s != nil {
			res, err = h.srv.RequestRoots(c.ctx, mcp.ListRootsRequest{})
		}
		if res == nil || err != nil {
			res, err = mcp.ListRootsResult{Roots: h.sessionRoots(c)}, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the client of the call to %s could not answer %s: %w", service, method, err)
	}
	return json.Marshal(res)
}

// scopeRoots are the roots of the scope a service serves: its project.
func (h *Hub) scopeRoots(service string) []mcp.Root {
	if roots := h.settings().projectRoots(service); roots != nil {
		return roots
	}
	if h.opts.Root != "" {
		return []mcp.Root{{URI: "file://" + h.opts.Root}}
	}
	return []mcp.Root{}
}

// sessionRoots are the roots of a caller's scope, when its client offers
// none.
func (h *Hub) sessionRoots(c *caller) []mcp.Root {
	if root := h.scopes.rootFor(c.ctx); root != "" {
		return []mcp.Root{{URI: "file://" + root}}
	}
	return []mcp.Root{}
}

// recordForward keeps a forwarded server→client message in the inspector.
func (h *Hub) recordForward(sid, method string, params any) {
	if b, err := json.Marshal(map[string]any{"method": method, "params": params}); err == nil {
		h.inspector.Add(inspect.DirSend, sid, b)
	}
}

package relay

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/hub/relay/held"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// What upstreams send back through the hub: progress to the client that
// asked for it, log messages to every session that may see the service at
// the level it asked for, resources/updated to the sessions subscribed, and
// requests (sampling, elicitation, roots) to the client of the call in
// flight.

// A PassThrough routes what flows back from upstreams: it owns the
// progress routes of the calls in flight, the resource subscriptions and
// the log level each session asked for.
type PassThrough struct {
	progress sync.Map   // hub progress token → progressRoute
	tasks    taskRoutes // the tasks handed to clients (taskroute.go)

	subMu  sync.Mutex
	subs   map[string]map[string]bool  // URI → subscribed session ids
	levels map[string]mcp.LoggingLevel // session → level it asked for

	// Held holds the calls of 2026-07-28 clients to session-era
	// upstreams while their clients answer the upstream (crossera.go).
	Held *held.Calls

	Server *server.MCPServer // set once the hub made it
	Pool   *Upstreams        // set once the hub made it
	// NotifyStdio writes a notification to the stdio client at once, in
	// order with the responses; false when no stdio client is served.
	NotifyStdio func(method string, params any) bool
	Clients     *session.Registry
	Scopes      *Scopes
	Settings    func() *Settings
	Masker      *mask.Masker
	Inspector   *inspect.Inspector
	Life        *Lifetime
	ListTimeout time.Duration
	Root        string // the stdio client's folder (Options.Root)
}

// notified handles a notification from an upstream.
func (p *PassThrough) notified(service string, n mcp.JSONRPCNotification) {
	params := inspect.ForClient(p.Masker, n.Params.AdditionalFields, inspect.DecodeJSON[map[string]any])
	switch mcp.MCPMethod(n.Method) {
	case mcp.MethodNotificationProgress:
		token := fmt.Sprint(params["progressToken"])
		r, ok := p.progress.Load(token)
		if !ok {
			return
		}
		route := r.(progressRoute)
		params["progressToken"] = route.token
		p.recordForward(route.caller.Session, n.Method, params)
		if route.caller.Session == session.StdioID && p.NotifyStdio(n.Method, params) {
			return
		}
		// On the request's own stream, before its response: mcp-go's
		// session channel is read by the session's other streams too
		// (decision 0200).
		if st := session.StreamOf(route.caller.Ctx); st != nil && st.Notify(n.Method, params) {
			return
		}
		_ = p.Server.SendNotificationToClient(route.caller.Ctx, n.Method, params)
	case mcp.MethodNotificationMessage:
		p.forwardLog(service, params)
	case mcp.MethodNotificationTasksStatus:
		p.taskStatus(service, params)
	case mcp.MethodNotificationResourceUpdated:
		uri, _ := params["uri"].(string)
		p.subMu.Lock()
		var sessions []string
		for sid := range p.subs[uri] {
			sessions = append(sessions, sid)
		}
		p.subMu.Unlock()
		for _, sid := range sessions {
			p.recordForward(sid, n.Method, params)
			_ = p.Server.SendNotificationToSpecificClient(sid, n.Method, params)
		}
	}
}

// forwardLog passes an upstream's log message to every session that may
// see the service, with the logger prefixed by the service's name; mcp-go
// drops it for a session whose level is higher.
func (p *PassThrough) forwardLog(service string, params map[string]any) {
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
	for _, cs := range p.Clients.List() {
		if p.Scopes.Reach(p.Scopes.WhereOfSession(cs)).Services[service] {
			_ = p.Server.SendLogMessageToSpecificClient(cs.ID(), note)
		}
	}
}

// SetLevel records the level a session asked for and gives every upstream
// the lowest any session asked for (messages are then filtered per
// session).
func (p *PassThrough) SetLevel(sid string, level mcp.LoggingLevel) {
	p.subMu.Lock()
	if p.levels == nil {
		p.levels = map[string]mcp.LoggingLevel{}
	}
	p.levels[sid] = level
	lowest := lowestLevel(p.levels)
	p.subMu.Unlock()
	// Only upstreams have a level to set: the services chronicle runs in
	// process (the Chronova bridge) log nothing to pass on.
	for _, st := range p.Pool.Status() {
		name, b := st.Name, p.Pool.Backend(st.Name)
		p.Life.Go(func() {
			ctx, cancel := context.WithTimeout(p.Life.ctx, p.ListTimeout)
			defer cancel()
			if _, err := b.Request(ctx, nil, string(mcp.MethodSetLogLevel), map[string]any{"level": lowest}); err != nil {
				p.Inspector.Note("", name+" did not take the log level "+string(lowest)+": "+err.Error())
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

// Subscribe routes resources/Subscribe to the service that serves uri,
// once per URI however many sessions Subscribe.
func (p *PassThrough) Subscribe(ctx context.Context, sid, uri string, on bool) {
	service := p.ResourceService(ctx, uri)
	if service == "" {
		return
	}
	p.subMu.Lock()
	if p.subs == nil {
		p.subs = map[string]map[string]bool{}
	}
	set := p.subs[uri]
	before := len(set)
	if on {
		if set == nil {
			set = map[string]bool{}
			p.subs[uri] = set
		}
		set[sid] = true
	} else {
		delete(set, sid)
		if len(set) == 0 {
			delete(p.subs, uri)
		}
	}
	after := len(set)
	p.subMu.Unlock()
	method := ""
	switch {
	case before == 0 && after == 1:
		method = string(mcp.MethodResourcesSubscribe)
	case before == 1 && after == 0:
		method = string(mcp.MethodResourcesUnsubscribe)
	default:
		return
	}
	if b := p.Settings().Backend(service); b != nil {
		if _, err := b.Request(ctx, nil, method, map[string]any{"uri": uri}); err != nil {
			p.Inspector.Note(sid, service+": "+method+" "+uri+": "+err.Error())
		}
	}
}

// dropSession forgets a session's subscriptions, log level and tasks.
func (p *PassThrough) dropSession(sid string) {
	p.subMu.Lock()
	var uris []string
	for uri, set := range p.subs {
		if set[sid] {
			uris = append(uris, uri)
		}
	}
	delete(p.levels, sid)
	p.subMu.Unlock()
	p.dropTasks(sid)
	sort.Strings(uris)
	for _, uri := range uris {
		p.Subscribe(p.Life.ctx, sid, uri, false)
	}
}

// ResourceService returns the service that serves uri for the request's
// session: the resource's, or the first template's that matches.
func (p *PassThrough) ResourceService(ctx context.Context, uri string) string {
	cat, vis := p.Scopes.VisibleTo(ctx)
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

// asks answers a request an upstream made while a client's call
// was in flight, by asking that client; a roots/list outside any call gets
// the scope the upstream serves.
func (p *PassThrough) asks(ctx context.Context, service string, who any, method string, params json.RawMessage) (json.RawMessage, error) {
	c, _ := who.(*Caller)
	if c == nil {
		return json.Marshal(mcp.ListRootsResult{Roots: p.scopeRoots(service)})
	}
	if c.held != nil {
		return p.askHeld(ctx, service, c, method, params)
	}
	switch {
	case c.Session == "" && c.Via == "api":
		return nil, fmt.Errorf("the call to %s came through the hub's API, which has no client to ask for %s", service, method)
	case c.Session == "":
		// A 2026-07-28 client is asked only in a call the hub holds for
		// it (crossera.go); it holds no stream to be asked on otherwise
		// (a task-only tool's task, decision 0210).
		return nil, fmt.Errorf("the client of the call to %s speaks 2026-07-28, which the hub asks for %s only in a call it holds for it (not in a task)", service, method)
	}
	p.recordForward(c.Session, method, json.RawMessage(params))
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
			res, err = p.Server.RequestSampling(c.Ctx, req)
		}
	case mcp.MethodElicitationCreate:
		var req mcp.ElicitationRequest
		if err = json.Unmarshal(params, &req.Params); err == nil {
			res, err = p.Server.RequestElicitation(c.Ctx, req)
		}
	case mcp.MethodListRoots:
		if s := server.ClientSessionFromContext(c.Ctx); s != nil {
			res, err = p.Server.RequestRoots(c.Ctx, mcp.ListRootsRequest{})
		}
		if res == nil || err != nil {
			res, err = mcp.ListRootsResult{Roots: p.sessionRoots(c)}, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the client of the call to %s could not answer %s: %w", service, method, err)
	}
	return json.Marshal(res)
}

// scopeRoots are the roots of the scope a service serves: its project.
func (p *PassThrough) scopeRoots(service string) []mcp.Root {
	if roots := p.Settings().ProjectRoots(service); roots != nil {
		return roots
	}
	if p.Root != "" {
		return []mcp.Root{{URI: "file://" + p.Root}}
	}
	return []mcp.Root{}
}

// sessionRoots are the roots of a caller's scope, when its client offers
// none.
func (p *PassThrough) sessionRoots(c *Caller) []mcp.Root {
	if root := p.Scopes.RootFor(c.Ctx); root != "" {
		return []mcp.Root{{URI: "file://" + root}}
	}
	return []mcp.Root{}
}

// recordForward keeps a forwarded server→client message in the inspector.
func (p *PassThrough) recordForward(sid, method string, params any) {
	if b, err := json.Marshal(map[string]any{"method": method, "params": params}); err == nil {
		p.Inspector.Add(inspect.DirSend, sid, b)
	}
}

// A progressRoute takes an upstream's progress back to the client that
// asked for it, under the token the client chose.
type progressRoute struct {
	caller *Caller
	token  any
}

var progressSeq atomic.Int64

// RouteProgress rewrites a progress token to a hub-unique one, so that two
// clients choosing the same token never see each other's progress, and
// returns the _meta to send upstream and a func that forgets the route.
func (p *PassThrough) RouteProgress(c *Caller, meta *mcp.Meta) (*mcp.Meta, func()) {
	if meta.ProgressToken == nil {
		return meta, func() {}
	}
	token := fmt.Sprintf("chronicle-progress-%d", progressSeq.Add(1))
	p.progress.Store(token, progressRoute{caller: c, token: meta.ProgressToken})
	out := *meta
	out.ProgressToken = token
	return &out, func() { p.progress.Delete(token) }
}

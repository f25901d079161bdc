package hub

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sort"
	"time"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// apiRoutes adds the management endpoints the inspector page reads. The
// Guard in front of them keeps them loopback-only, or token-guarded.
func (h *Hub) apiRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/status", h.apiStatus)
	mux.HandleFunc("GET /api/services", h.apiServices)
	mux.HandleFunc("GET /api/tools", h.apiTools)
	mux.HandleFunc("GET /api/log", func(w http.ResponseWriter, r *http.Request) { writeRecords(w, h.inspector.Records()) })
	mux.HandleFunc("POST /api/call", h.apiCall)
}

// A ServiceStatus is one service as /api/status shows it.
type ServiceStatus struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	Project   string `json:"project,omitempty"`
	State     string `json:"state"`
	Error     string `json:"error,omitempty"`
	Tools     int    `json:"tools"`
	PID       int    `json:"pid,omitempty"`
	Restarts  int    `json:"restarts,omitempty"`
	// Hidden lists tools the hub does not offer although no policy hides
	// them, each with why.
	Hidden []string `json:"hidden,omitempty"`

	// CatalogueTokens is what the service's tools cost listed in full;
	// ListedTokens what they add to the list where the service is
	// offered (less in search mode).
	CatalogueTokens int `json:"catalogue_tokens"`
	ListedTokens    int `json:"listed_tokens"`
}

// Status describes the hub for /api/status.
func (h *Hub) Status() map[string]any {
	cat := h.cat.Load()
	h.mu.Lock()
	st, projects, guard := h.st, h.projects, h.guard
	h.mu.Unlock()
	live := map[string]ServiceStatus{}
	for _, s := range h.pool.status() {
		live[s.Name] = s
	}
	var services []ServiceStatus
	for _, p := range projects {
		s, ok := live[p.Name]
		if !ok {
			s = ServiceStatus{Name: p.Name, Transport: "builtin", State: "ready"}
		}
		s.Project = p.Project
		if cat != nil {
			if e, bad := cat.Errors[p.Name]; bad {
				s.State, s.Error = "failed", e
			}
			s.Tools = 0 // the catalogue's count, not the upstream's on top of it
			for _, t := range cat.Tools {
				if t.Service != p.Name || t.Blocked {
					continue
				}
				if why := t.Hidden(); why != "" {
					s.Hidden = append(s.Hidden, t.Name+": "+why)
					continue
				}
				s.Tools++
			}
			s.CatalogueTokens, s.ListedTokens = h.serviceTokens(cat, p.Name, p.Project)
		}
		services = append(services, s)
	}
	var collisions []string
	endpoints := []EndpointStatus{}
	if cat != nil {
		collisions = cat.Collisions
		endpoints = h.endpointStatus(cat)
	}
	var children []int
	for _, s := range services {
		if s.PID > 0 {
			children = append(children, s.PID)
		}
	}
	return map[string]any{
		"endpoint":           "http://" + guard.Listen + "/mcp",
		"protocol_version":   SupportedVersions[len(SupportedVersions)-1],
		"protocol_versions":  SupportedVersions,
		"version":            h.opts.Version,
		"uptime_seconds":     int(time.Since(h.started).Seconds()),
		"state_serial":       st.Serial,
		"services":           services,
		"sessions":           h.sessionList(),
		"stateless_requests": h.statelessTraffic(),
		"children":           children,
		"collisions":         collisions,
		"endpoints":          endpoints,
	}
}

// A SessionInfo is one live session as /api/status shows it.
type SessionInfo struct {
	ID       string    `json:"id"`
	Started  time.Time `json:"started"`
	Root     string    `json:"root,omitempty"`
	Endpoint string    `json:"endpoint,omitempty"`
}

func (h *Hub) sessionList() []SessionInfo {
	out := []SessionInfo{}
	h.sessions.Range(func(k, v any) bool {
		s := SessionInfo{ID: k.(string), Started: v.(time.Time)}
		if r, ok := h.roots.Load(k); ok {
			s.Root = r.(string)
		}
		if ep, ok := h.ids.endpointOf(s.ID); ok {
			s.Endpoint = ep
		}
		out = append(out, s)
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out
}

func (h *Hub) apiStatus(w http.ResponseWriter, r *http.Request) { h.writeJSON(w, h.Status()) }

func (h *Hub) apiServices(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	st := h.st
	h.mu.Unlock()
	type svc struct {
		Name      string            `json:"name"`
		Transport string            `json:"transport"`
		Command   string            `json:"command,omitempty"`
		Args      []string          `json:"args,omitempty"`
		Env       map[string]string `json:"env,omitempty"`
		URL       string            `json:"url,omitempty"`
		Headers   map[string]string `json:"headers,omitempty"`
		Project   string            `json:"project,omitempty"`
		Enabled   bool              `json:"enabled"`
		Timeout   string            `json:"timeout"`
		Policy    *policyView       `json:"policy,omitempty"`
	}
	var out []svc
	for name, s := range st.Services {
		out = append(out, svc{
			Name: name, Transport: s.Transport, Command: s.Command, Args: mask.ShownList(s.Args), Env: mask.ShownMap(s.Env),
			URL: mask.Shown("url", s.URL), Headers: mask.ShownMap(s.Headers), Project: s.Project, Enabled: s.Enabled, Timeout: s.Timeout.String(),
			Policy: policyOf(st.Policies[name]),
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	h.writeJSON(w, out)
}

// A policyView is a service's policy as /api/services shows it.
type policyView struct {
	Enabled       *bool    `json:"enabled,omitempty"`
	DisabledTools []string `json:"disabled_tools,omitempty"`
	EnabledTools  []string `json:"enabled_tools,omitempty"`
}

// policyOf returns the view of p, or nil when p restricts nothing.
func policyOf(p state.Policy) *policyView {
	if p.Enabled == nil && len(p.DisabledTools) == 0 && len(p.EnabledTools) == 0 {
		return nil
	}
	return &policyView{Enabled: p.Enabled, DisabledTools: p.DisabledTools, EnabledTools: p.EnabledTools}
}

func (h *Hub) apiTools(w http.ResponseWriter, r *http.Request) {
	cat := h.catalogue(r.Context())
	type tool struct {
		Name        string          `json:"name"`
		Service     string          `json:"service"`
		Tool        string          `json:"tool"`
		Description string          `json:"description,omitempty"`
		Blocked     bool            `json:"blocked,omitempty"`
		InputSchema json.RawMessage `json:"inputSchema,omitempty"`

		// Tokens is the definition's cost in a client's context.
		Tokens int `json:"tokens"`
	}
	out := []tool{}
	for _, t := range cat.sortedTools() {
		schema := t.Tool.RawInputSchema
		if schema == nil {
			schema, _ = json.Marshal(t.Tool.InputSchema)
		}
		out = append(out, tool{t.Exposed, t.Service, t.Name, t.Tool.Description, t.Blocked, schema, cat.toolTokens(t)})
	}
	h.writeJSON(w, out)
}

// apiCall calls a tool as a client would, through the one call path:
// {"tool": "<service>__<tool>", "arguments": {…}, "root": "/path"}. It is
// recorded in the inspector like a client's tools/call.
func (h *Hub) apiCall(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Tool      string         `json:"tool"`
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
		Root      string         `json:"root"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Tool+in.Name == "" {
		http.Error(w, `expected {"tool": "<service>__<tool>", "arguments": {...}}`, http.StatusBadRequest)
		return
	}
	if in.Tool == "" {
		in.Tool = in.Name
	}
	ctx := context.WithValue(r.Context(), callingKey, in.Tool)
	if in.Root != "" {
		ctx = context.WithValue(ctx, rootKey, rootFromURI(in.Root))
	}
	if b, err := json.Marshal(map[string]any{"method": "tools/call", "params": map[string]any{"name": in.Tool, "arguments": in.Arguments}, "via": "api"}); err == nil {
		h.inspector.Add(DirRecv, "", b)
	}
	res, err := h.call(ctx, &caller{ctx: ctx, via: "api"}, in.Tool, in.Arguments, nil)
	if errors.Is(err, errNoTool) {
		http.Error(w, "no tool "+in.Tool+" in this scope", http.StatusNotFound)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	if b, err := json.Marshal(map[string]any{"result": res, "via": "api"}); err == nil {
		h.inspector.Add(DirSend, "", b)
	}
	h.writeJSON(w, res)
}

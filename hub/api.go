package hub

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/hub/search"
)

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

	// CatalogTokens is what the service's tools cost listed in full;
	// ListedTokens what they add to the list where the service is
	// offered (less in search mode).
	CatalogTokens int `json:"catalogue_tokens"`
	ListedTokens  int `json:"listed_tokens"`
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
			s.CatalogTokens, s.ListedTokens = h.serviceTokens(cat, p.Name, p.Project)
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
		"client_token":       guard.needsToken(clientToken), // whether /mcp asks a local client for the token
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
	for _, cs := range h.clients.list() {
		out = append(out, cs.info())
	}
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
	cat := h.catalog(r.Context())
	type tool struct {
		Name        string `json:"name"`
		Service     string `json:"service"`
		Tool        string `json:"tool"`
		Description string `json:"description,omitempty"`
		Blocked     bool   `json:"blocked,omitempty"`
		// Hidden says why a tool no policy blocks is not offered either
		// (exposedTool.Hidden); /api/status does not count it.
		Hidden      string          `json:"hidden,omitempty"`
		InputSchema json.RawMessage `json:"inputSchema,omitempty"`

		// Tokens is the definition's cost in a client's context.
		Tokens int `json:"tokens"`
	}
	out := []tool{}
	tools := cat.SortedTools()
	if q := strings.TrimSpace(r.URL.Query().Get("q")); q != "" {
		tools = searchCatalog(tools, q)
	}
	for _, t := range tools {
		schema := t.Tool.RawInputSchema
		if schema == nil {
			schema, _ = json.Marshal(t.Tool.InputSchema)
		}
		out = append(out, tool{t.Exposed, t.Service, t.Name, t.Tool.Description, t.Blocked, t.Hidden(), schema, cat.ToolTokens(t)})
	}
	h.writeJSON(w, out)
}

// apiLog answers the inspector's records, each sealed (cut down and
// masked) once.
func (h *Hub) apiLog(w http.ResponseWriter, r *http.Request) {
	inspect.WriteRecords(w, h.inspector.Records())
}

// searchCatalog returns the tools the hub's own search (search_tools'
// ranking) finds for query, best first: the console searches as a client
// in search mode would.
func searchCatalog(tools []*catalog.Tool, query string) []*catalog.Tool {
	byName := make(map[string]*catalog.Tool, len(tools))
	for _, t := range tools {
		byName[t.Exposed] = t
	}
	var out []*catalog.Tool
	for _, hit := range search.NewIndex(catalog.DocsOf(tools)).Search(query, -1) {
		out = append(out, byName[hit.Name])
	}
	return out
}

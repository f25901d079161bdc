package console

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/hub/search"
)

func (h *API) Status(w http.ResponseWriter, r *http.Request) { h.writeJSON(w, h.hub.Status()) }

func (h *API) Services(w http.ResponseWriter, r *http.Request) {
	st := h.hub.State()
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

func (h *API) Tools(w http.ResponseWriter, r *http.Request) {
	cat := h.hub.Catalog(r.Context())
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

// Log answers the inspector's records, each sealed (cut down and
// masked) once.
func (h *API) Log(w http.ResponseWriter, r *http.Request) {
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

func (h *API) Health(w http.ResponseWriter, r *http.Request) {
	h.writeJSON(w, map[string]string{"status": "ok", "version": h.opts.Version})
}

// writeJSON answers an /api request: every string is masked with
// Masker.Text, since a person reads it.
func (h *API) writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	var out bytes.Buffer
	_ = json.Indent(&out, inspect.ForPerson(h.masker, b), "", "  ")
	out.WriteByte('\n')
	_, _ = w.Write(out.Bytes())
}

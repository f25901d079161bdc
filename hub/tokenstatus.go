package hub

import (
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/console"
)

// endpointStatus returns the endpoints worth showing: the hub's own, each
// profile's, and each scoped endpoint a client is using (a session's or a
// 2026-07-28 request's ?root=).
func (h *Hub) endpointStatus(cat *catalog.Catalog) []console.EndpointStatus {
	seen := map[catalog.Where]bool{{Profile: h.opts.Profile, Root: h.opts.Root}: true}
	for name := range h.settings().Exposure.Profiles {
		seen[catalog.Where{Profile: name, Root: h.opts.Root}] = true
	}
	for _, cs := range h.clients.List() {
		seen[h.scopes.WhereOfSession(cs)] = true
	}
	for key := range h.stateless.Counts() {
		path, root, _ := strings.Cut(key, "?root=")
		if root == "" {
			root = h.opts.Root
		}
		seen[catalog.Where{Profile: catalog.ProfileOfPath(path), Service: catalog.ServiceOfPath(path), Root: root}] = true
	}
	out := make([]console.EndpointStatus, 0, len(seen))
	for w := range seen {
		r := h.scopes.Reach(w)
		if r.Unknown {
			continue
		}
		v := cat.ViewIn(r, h.scopes.DecideAuto)
		e := console.EndpointStatus{Endpoint: "/mcp", Profile: w.Profile, Root: w.Root, Mode: v.Mode, Configured: r.Exposure.Settings.ModeFor(r.Profile), Tools: len(v.Offered)}
		if w.Profile != "" {
			e.Endpoint = "/mcp/profile/" + w.Profile
		}
		if v.ListsMeta() {
			e.Listed, e.ListedTokens = 3, metaTokens()
		}
		for _, t := range v.Offered {
			n := cat.ToolTokens(t)
			e.CatalogTokens += n
			if v.Listed[t.Exposed] {
				e.Listed++
				e.ListedTokens += n
			}
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Endpoint != out[j].Endpoint {
			return out[i].Endpoint < out[j].Endpoint
		}
		return out[i].Root < out[j].Root
	})
	return out
}

// serviceTokens returns a service's token costs: every tool it offers in
// full, and what it adds to the hub's list where it is offered (the
// endpoint scoped to its project, or the hub's own for a global service).
func (h *Hub) serviceTokens(cat *catalog.Catalog, service, project string) (full, listed int) {
	root := project
	if root == "" {
		root = h.opts.Root
	}
	v := cat.ViewIn(h.scopes.Reach(catalog.Where{Root: root}), h.scopes.DecideAuto)
	for _, t := range cat.SortedTools() {
		if t.Service != service || t.Blocked || t.Hidden() != "" {
			continue
		}
		n := cat.ToolTokens(t)
		full += n
		if v.Listed[t.Exposed] {
			listed += n
		}
	}
	return full, listed
}

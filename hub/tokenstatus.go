package hub

import (
	"sort"
	"strings"
)

// An EndpointStatus is what one endpoint offers and lists, and the token
// cost of each, as /api/status shows it.
type EndpointStatus struct {
	Endpoint string `json:"endpoint"` // /mcp or /mcp/profile/NAME
	Profile  string `json:"profile,omitempty"`
	Root     string `json:"root,omitempty"`
	// Mode is how it lists tools now: "all" or "search" (an "auto"
	// endpoint shows what it decided).
	Mode       string `json:"mode"`
	Configured string `json:"configured"` // all, search or auto
	// Tools and CatalogueTokens are every tool it offers, in full;
	// Listed and ListedTokens what its tools/list holds.
	Tools           int `json:"tools"`
	CatalogueTokens int `json:"catalogue_tokens"`
	Listed          int `json:"listed"`
	ListedTokens    int `json:"listed_tokens"`
}

// endpointStatus returns the endpoints worth showing: the hub's own, each
// profile's, and each scoped endpoint a client is using (a session's or a
// 2026-07-28 request's ?root=).
func (h *Hub) endpointStatus(cat *Catalogue) []EndpointStatus {
	seen := map[where]bool{{profile: h.opts.Profile, root: h.opts.Root}: true}
	for name := range h.exposureConfig().profiles {
		seen[where{profile: name, root: h.opts.Root}] = true
	}
	for _, cs := range h.clients.list() {
		seen[h.whereOfSession(cs)] = true
	}
	for key := range h.statelessTraffic() {
		path, root, _ := strings.Cut(key, "?root=")
		if root == "" {
			root = h.opts.Root
		}
		seen[where{profile: profileOfPath(path), service: serviceOfPath(path), root: root}] = true
	}
	out := make([]EndpointStatus, 0, len(seen))
	for w := range seen {
		r := h.reachOf(w)
		if r.unknown {
			continue
		}
		v := h.viewIn(cat, r)
		e := EndpointStatus{Endpoint: "/mcp", Profile: w.profile, Root: w.root, Mode: v.mode, Configured: r.cfg.settings.ModeFor(r.profile), Tools: len(v.offered)}
		if w.profile != "" {
			e.Endpoint = "/mcp/profile/" + w.profile
		}
		if v.listsMeta() {
			e.Listed, e.ListedTokens = 3, metaTokens()
		}
		for _, t := range v.offered {
			n := cat.toolTokens(t)
			e.CatalogueTokens += n
			if v.listed[t.Exposed] {
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
func (h *Hub) serviceTokens(cat *Catalogue, service, project string) (catalogue, listed int) {
	root := project
	if root == "" {
		root = h.opts.Root
	}
	v := h.viewIn(cat, h.reachOf(where{root: root}))
	for _, t := range cat.sortedTools() {
		if t.Service != service || t.Blocked || t.Hidden() != "" {
			continue
		}
		n := cat.toolTokens(t)
		catalogue += n
		if v.listed[t.Exposed] {
			listed += n
		}
	}
	return catalogue, listed
}

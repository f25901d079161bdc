package report

import (
	"sort"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/hub/access"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// Inputs are the parts of the hub a status is read from.
type Inputs struct {
	Catalog    *catalog.Catalog // the catalogue built last, or nil
	Settings   *relay.Settings
	Guard      access.Guard
	Live       []console.ServiceStatus // the pool's upstreams
	Scopes     *relay.Scopes
	Clients    []*session.Session
	Stateless  map[string]int64 // 2026-07-28 requests per endpoint key
	Version    string
	Started    time.Time
	Profile    string // the hub's own endpoint's profile and folder (Options)
	Root       string
	MetaTokens func() int // what the meta-tools cost as listed in search mode
}

// Status describes the hub for /api/status.
func Status(in Inputs) map[string]any {
	cat, s := in.Catalog, in.Settings
	live := map[string]console.ServiceStatus{}
	for _, s := range in.Live {
		live[s.Name] = s
	}
	var services []console.ServiceStatus
	for _, p := range s.Projects {
		s, ok := live[p.Name]
		if !ok {
			s = console.ServiceStatus{Name: p.Name, Transport: "builtin", State: "ready"}
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
			s.CatalogTokens, s.ListedTokens = in.serviceTokens(p.Name, p.Project)
		}
		services = append(services, s)
	}
	var collisions []string
	endpoints := []console.EndpointStatus{}
	if cat != nil {
		collisions = cat.Collisions
		endpoints = in.endpoints()
	}
	var children []int
	for _, s := range services {
		if s.PID > 0 {
			children = append(children, s.PID)
		}
	}
	sessions := []session.Info{}
	for _, cs := range in.Clients {
		sessions = append(sessions, cs.Info())
	}
	sort.Slice(sessions, func(i, j int) bool { return sessions[i].Started.Before(sessions[j].Started) })
	return map[string]any{
		"endpoint":           "http://" + in.Guard.Listen + "/mcp",
		"client_token":       in.Guard.NeedsToken(access.ClientToken), // whether /mcp asks a local client for the token
		"protocol_version":   wire.SupportedVersions[len(wire.SupportedVersions)-1],
		"protocol_versions":  wire.SupportedVersions,
		"version":            in.Version,
		"uptime_seconds":     int(time.Since(in.Started).Seconds()),
		"state_serial":       s.State.Serial,
		"services":           services,
		"sessions":           sessions,
		"stateless_requests": in.Stateless,
		"children":           children,
		"collisions":         collisions,
		"endpoints":          endpoints,
	}
}

// endpoints returns the endpoints worth showing: the hub's own, each
// profile's, and each scoped endpoint a client is using (a session's or a
// 2026-07-28 request's ?root=).
func (in Inputs) endpoints() []console.EndpointStatus {
	cat := in.Catalog
	seen := map[catalog.Where]bool{{Profile: in.Profile, Root: in.Root}: true}
	for name := range in.Settings.Exposure.Profiles {
		seen[catalog.Where{Profile: name, Root: in.Root}] = true
	}
	for _, cs := range in.Clients {
		seen[in.Scopes.WhereOfSession(cs)] = true
	}
	for key := range in.Stateless {
		path, root, _ := strings.Cut(key, "?root=")
		if root == "" {
			root = in.Root
		}
		seen[catalog.Where{Profile: catalog.ProfileOfPath(path), Service: catalog.ServiceOfPath(path), Root: root}] = true
	}
	out := make([]console.EndpointStatus, 0, len(seen))
	for w := range seen {
		r := in.Scopes.Reach(w)
		if r.Unknown {
			continue
		}
		v := cat.ViewIn(r, in.Scopes.DecideAuto)
		e := console.EndpointStatus{Endpoint: "/mcp", Profile: w.Profile, Root: w.Root, Mode: v.Mode, Configured: r.Exposure.Settings.ModeFor(r.Profile), Tools: len(v.Offered)}
		if w.Profile != "" {
			e.Endpoint = "/mcp/profile/" + w.Profile
		}
		if v.ListsMeta() {
			e.Listed, e.ListedTokens = 3, in.MetaTokens()
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
func (in Inputs) serviceTokens(service, project string) (full, listed int) {
	root := project
	if root == "" {
		root = in.Root
	}
	v := in.Catalog.ViewIn(in.Scopes.Reach(catalog.Where{Root: root}), in.Scopes.DecideAuto)
	for _, t := range in.Catalog.SortedTools() {
		if t.Service != service || t.Blocked || t.Hidden() != "" {
			continue
		}
		n := in.Catalog.ToolTokens(t)
		full += n
		if v.Listed[t.Exposed] {
			listed += n
		}
	}
	return full, listed
}

package hub

import (
	"sort"
	"time"

	"github.com/chronicle-dev/chronicle/hub/access"
	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// Status describes the hub for /api/status.
func (h *Hub) Status() map[string]any {
	cat := h.lister.Built()
	s, guard := h.settings(), h.Guard()
	st, projects := s.State, s.Projects
	live := map[string]console.ServiceStatus{}
	for _, s := range h.pool.Status() {
		live[s.Name] = s
	}
	var services []console.ServiceStatus
	for _, p := range projects {
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
			s.CatalogTokens, s.ListedTokens = h.serviceTokens(cat, p.Name, p.Project)
		}
		services = append(services, s)
	}
	var collisions []string
	endpoints := []console.EndpointStatus{}
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
		"client_token":       guard.NeedsToken(access.ClientToken), // whether /mcp asks a local client for the token
		"protocol_version":   wire.SupportedVersions[len(wire.SupportedVersions)-1],
		"protocol_versions":  wire.SupportedVersions,
		"version":            h.opts.Version,
		"uptime_seconds":     int(time.Since(h.started).Seconds()),
		"state_serial":       st.Serial,
		"services":           services,
		"sessions":           h.sessionList(),
		"stateless_requests": h.stateless.Counts(),
		"children":           children,
		"collisions":         collisions,
		"endpoints":          endpoints,
	}
}

func (h *Hub) sessionList() []session.Info {
	out := []session.Info{}
	for _, cs := range h.clients.List() {
		out = append(out, cs.Info())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out
}

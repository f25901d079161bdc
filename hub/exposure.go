package hub

import (
	"context"
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/session"
)

// How the hub exposes tools is set in the state (hub.tools,
// search_threshold, always, and profile blocks) and read at each reload.
// What a request sees depends on where it came from: its profile (the
// /mcp/profile/NAME it was sent to, or serve --stdio --profile NAME) and its
// root (scope). Those two pick a view of the catalogue (view.go).

// exposureConfig returns the current exposure settings.
func (h *Hub) exposureConfig() catalog.Exposure {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.expose
}

// hasProfile reports whether the state defines a profile.
func (h *Hub) hasProfile(name string) bool {
	_, ok := h.exposureConfig().Profiles[name]
	return ok
}

// profileNames lists the defined profiles for a message, or "".
func (h *Hub) profileNames() string {
	cfg := h.exposureConfig()
	if len(cfg.Profiles) == 0 {
		return " (it defines none)"
	}
	names := make([]string, 0, len(cfg.Profiles))
	for n := range cfg.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return " (its profiles: " + strings.Join(names, ", ") + ")"
}

// whereOf returns where a request came from.
func (h *Hub) whereOf(ctx context.Context) catalog.Where {
	w := catalog.Where{Profile: h.opts.Profile, Service: h.opts.Service, Root: h.rootFor(ctx)}
	if ep, ok := session.EndpointOf(ctx); ok {
		w.Profile, w.Service = catalog.ProfileOfPath(ep.Path), catalog.ServiceOfPath(ep.Path)
	}
	return w
}

// whereOfSession returns where a session was made.
func (h *Hub) whereOfSession(cs *session.Session) catalog.Where {
	w := catalog.Where{Profile: h.opts.Profile, Service: h.opts.Service, Root: h.rootOfSession(cs)}
	if key := cs.EndpointKey(); key != "" {
		path, _, _ := strings.Cut(key, "?root=")
		w.Profile, w.Service = catalog.ProfileOfPath(path), catalog.ServiceOfPath(path)
	}
	return w
}

// reachOf returns the services w may use under the current settings.
func (h *Hub) reachOf(w catalog.Where) catalog.Reach {
	h.mu.Lock()
	projects, cfg := h.projects, h.expose
	h.mu.Unlock()
	return catalog.ReachOf(w, projects, cfg)
}

package hub

import (
	"context"
	"strings"

	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/session"
)

// How the hub exposes tools is set in the state (hub.tools,
// search_threshold, always, and profile blocks) and read at each reload.
// What a request sees depends on where it came from: its profile (the
// /mcp/profile/NAME it was sent to, or serve --stdio --profile NAME) and its
// root (scope). Those two pick a view of the catalogue (view.go).

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
	s := h.settings()
	return catalog.ReachOf(w, s.projects, s.expose)
}

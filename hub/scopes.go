package hub

import (
	"context"
	"strings"
	"sync"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/listing"
	"github.com/chronicle-dev/chronicle/hub/session"
)

// How the hub exposes tools is set in the state (hub.tools,
// search_threshold, always, and profile blocks) and read at each reload.
// What a request sees depends on where it came from: its profile (the
// /mcp/profile/NAME it was sent to, or serve --stdio --profile NAME), the one
// service of a service endpoint, and its root (scope). Those pick the
// services in its reach and its view of the current catalogue.

// A scopes answers, for a request or a session, where it came from, the
// services in its reach and its view of the catalogue. It holds only the
// auto mode's last choice per endpoint (hysteresis across catalogues).
type scopes struct {
	// profile, service and root are the stdio client's (Options): an HTTP
	// request names its own.
	profile, service, root string
	clients                *session.Registry
	settings               func() *settings
	lister                 *listing.Lister
	note                   func(string) // tells the inspector
	autoModes              sync.Map     // endpoint (profile and services) → the mode auto chose last
}

// where returns where a request came from.
func (s *scopes) where(ctx context.Context) catalog.Where {
	w := catalog.Where{Profile: s.profile, Service: s.service, Root: s.rootFor(ctx)}
	if ep, ok := session.EndpointOf(ctx); ok {
		w.Profile, w.Service = catalog.ProfileOfPath(ep.Path), catalog.ServiceOfPath(ep.Path)
	}
	return w
}

// whereOfSession returns where a session was made.
func (s *scopes) whereOfSession(cs *session.Session) catalog.Where {
	w := catalog.Where{Profile: s.profile, Service: s.service, Root: s.rootOfSession(cs)}
	if key := cs.EndpointKey(); key != "" {
		path, _, _ := strings.Cut(key, "?root=")
		w.Profile, w.Service = catalog.ProfileOfPath(path), catalog.ServiceOfPath(path)
	}
	return w
}

// reach returns the services w may use under the current settings.
func (s *scopes) reach(w catalog.Where) catalog.Reach {
	cfg := s.settings()
	return catalog.ReachOf(w, cfg.projects, cfg.expose)
}

// view returns the catalogue and the view a request sees. It is on every
// call's path (mcp-go filters the called tool): the view is found by where
// the request came from, without working out its scope again.
func (s *scopes) view(ctx context.Context) (*catalog.Catalog, *catalog.View) {
	cat := s.lister.Current()
	w := s.where(ctx)
	k := catalog.WhereKey{Gen: s.settings().expose.Gen, Where: w}
	return cat, cat.ViewFor(k, s.reach, s.decideAuto)
}

// decideAuto picks an auto endpoint's mode for a catalogue whose offered
// tools cost tokens, with hysteresis on the mode it used last (kept for
// the hub's lifetime, across catalogues and reloads).
func (s *scopes) decideAuto(r catalog.Reach, tokens int) string {
	key := r.AutoKey()
	prev := ""
	if m, ok := s.autoModes.Load(key); ok {
		prev = m.(string)
	}
	mode := exposure.Decide(prev, tokens, r.Exposure.Settings.Limit())
	s.autoModes.Store(key, mode)
	if prev != "" && prev != mode {
		s.note("auto exposure: " + catalog.DescribeReach(r) + " switched from " + prev + " to " + mode)
	}
	return mode
}

// rootFor returns the folder a request's session works in: what its client
// said (X-Chronicle-Root, or its MCP roots), else the stdio working
// directory.
func (s *scopes) rootFor(ctx context.Context) string {
	if cs := s.clients.Get(sessionID(ctx)); cs != nil {
		if r := cs.RootFolder(); r != "" {
			return r
		}
	}
	if r := session.RootOf(ctx); r != "" {
		return r
	}
	return s.root
}

// inScope reports whether a session may use a service.
func (s *scopes) inScope(ctx context.Context, service string) bool {
	_, vis := s.visibleTo(ctx)
	return vis[service]
}

// visibleTo returns the current catalogue (empty before the first build)
// and the services a request may use: those of its scope, narrowed to its
// endpoint's profile.
func (s *scopes) visibleTo(ctx context.Context) (*catalog.Catalog, map[string]bool) {
	cat, v := s.view(ctx)
	return cat, v.Reach.Services
}

// rootOfSession returns the folder a session works in.
func (s *scopes) rootOfSession(cs *session.Session) string {
	if r := cs.RootFolder(); r != "" {
		return r
	}
	return s.root
}

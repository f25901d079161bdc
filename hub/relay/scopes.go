package relay

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

// A Scopes answers, for a request or a session, where it came from, the
// services in its reach and its view of the catalogue. It holds only the
// auto mode's last choice per endpoint (hysteresis across catalogues).
type Scopes struct {
	// Profile, Service and Root are the stdio client's (Options): an HTTP
	// request names its own.
	Profile, Service, Root string
	Clients                *session.Registry
	Settings               func() *Settings
	Lister                 *listing.Lister
	Note                   func(string) // tells the inspector
	autoModes              sync.Map     // endpoint (profile and services) → the mode auto chose last
}

// Where returns Where a request came from.
func (s *Scopes) Where(ctx context.Context) catalog.Where {
	w := catalog.Where{Profile: s.Profile, Service: s.Service, Root: s.RootFor(ctx)}
	if ep, ok := session.EndpointOf(ctx); ok {
		w.Profile, w.Service = catalog.ProfileOfPath(ep.Path), catalog.ServiceOfPath(ep.Path)
	}
	return w
}

// WhereOfSession returns where a session was made.
func (s *Scopes) WhereOfSession(cs *session.Session) catalog.Where {
	w := catalog.Where{Profile: s.Profile, Service: s.Service, Root: s.rootOfSession(cs)}
	if key := cs.EndpointKey(); key != "" {
		path, _, _ := strings.Cut(key, "?root=")
		w.Profile, w.Service = catalog.ProfileOfPath(path), catalog.ServiceOfPath(path)
	}
	return w
}

// Reach returns the services w may use under the current settings.
func (s *Scopes) Reach(w catalog.Where) catalog.Reach {
	cfg := s.Settings()
	return catalog.ReachOf(w, cfg.Projects, cfg.Exposure)
}

// View returns the catalogue and the View a request sees. It is on every
// call's path (mcp-go filters the called tool): the View is found by where
// the request came from, without working out its scope again.
func (s *Scopes) View(ctx context.Context) (*catalog.Catalog, *catalog.View) {
	cat := s.Lister.Current()
	w := s.Where(ctx)
	k := catalog.WhereKey{Gen: s.Settings().Exposure.Gen, Where: w}
	return cat, cat.ViewFor(k, s.Reach, s.DecideAuto)
}

// DecideAuto picks an auto endpoint's mode for a catalogue whose offered
// tools cost tokens, with hysteresis on the mode it used last (kept for
// the hub's lifetime, across catalogues and reloads).
func (s *Scopes) DecideAuto(r catalog.Reach, tokens int) string {
	key := r.AutoKey()
	prev := ""
	if m, ok := s.autoModes.Load(key); ok {
		prev = m.(string)
	}
	mode := exposure.Decide(prev, tokens, r.Exposure.Settings.Limit())
	s.autoModes.Store(key, mode)
	if prev != "" && prev != mode {
		s.Note("auto exposure: " + catalog.DescribeReach(r) + " switched from " + prev + " to " + mode)
	}
	return mode
}

// RootFor returns the folder a request's session works in: what its client
// said (X-Chronicle-Root, or its MCP roots), else the stdio working
// directory.
func (s *Scopes) RootFor(ctx context.Context) string {
	if cs := s.Clients.Get(SessionID(ctx)); cs != nil {
		if r := cs.RootFolder(); r != "" {
			return r
		}
	}
	if r := session.RootOf(ctx); r != "" {
		return r
	}
	return s.Root
}

// InScope reports whether a session may use a service.
func (s *Scopes) InScope(ctx context.Context, service string) bool {
	_, vis := s.VisibleTo(ctx)
	return vis[service]
}

// VisibleTo returns the current catalogue (empty before the first build)
// and the services a request may use: those of its scope, narrowed to its
// endpoint's profile.
func (s *Scopes) VisibleTo(ctx context.Context) (*catalog.Catalog, map[string]bool) {
	cat, v := s.View(ctx)
	return cat, v.Reach.Services
}

// rootOfSession returns the folder a session works in.
func (s *Scopes) rootOfSession(cs *session.Session) string {
	if r := cs.RootFolder(); r != "" {
		return r
	}
	return s.Root
}

package hub

import (
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/listing"
)

// The settings of one reload: what the state offers, as the hub serves it.
// Reload makes a new value and publishes it whole; nothing changes one in
// place, so every reader sees one reload's settings without the hub's
// mutex.
type settings struct {
	st       *state.State
	backends map[string]backend
	projects []exposure.Scoped // the services offered, by name, each with its project folder
	policies map[string]*state.Policy
	expose   catalog.Exposure
	offers   []listing.Offer // the services offered, as the lister lists them
}

// noSettings stands in before the first reload.
var noSettings = &settings{st: &state.State{}}

// settings returns the settings of the last reload.
func (h *Hub) settings() *settings {
	if s := h.cfg.Load(); s != nil {
		return s
	}
	return noSettings
}

// backend returns the backend of a service, or nil.
func (s *settings) backend(service string) backend { return s.backends[service] }

// hasProfile reports whether the state defines a profile.
func (s *settings) hasProfile(name string) bool {
	_, ok := s.expose.Profiles[name]
	return ok
}

// profileNames lists the defined profiles for a message, or "".
func (s *settings) profileNames() string {
	if len(s.expose.Profiles) == 0 {
		return " (it defines none)"
	}
	names := make([]string, 0, len(s.expose.Profiles))
	for n := range s.expose.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return " (its profiles: " + strings.Join(names, ", ") + ")"
}

// hasService reports whether the hub serves a service: declared, enabled,
// and not disabled by its policy.
func (s *settings) hasService(name string) bool {
	for _, p := range s.projects {
		if p.Name == name {
			return true
		}
	}
	return false
}

// serviceNames lists the services the hub serves for a message.
func (s *settings) serviceNames() string {
	if len(s.projects) == 0 {
		return " (it serves none)"
	}
	names := make([]string, 0, len(s.projects))
	for _, p := range s.projects {
		names = append(names, p.Name)
	}
	return " (its services: " + strings.Join(names, ", ") + ")"
}

// projectRoots are the roots of the project a service is offered in, or
// none for a global service.
func (s *settings) projectRoots(service string) []mcp.Root {
	for _, p := range s.projects {
		if p.Name == service && p.Project != "" {
			return []mcp.Root{{URI: "file://" + p.Project, Name: service}}
		}
	}
	return nil
}

// maxSessions is hub { max_sessions }, or its default.
func (s *settings) maxSessions() int {
	if s.st != nil && s.st.Hub != nil && s.st.Hub.MaxSessions > 0 {
		return s.st.Hub.MaxSessions
	}
	return config.DefaultMaxSessions
}

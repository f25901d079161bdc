package relay

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

// The Settings of one reload: what the state offers, as the hub serves it.
// Reload makes a new value and publishes it whole; nothing changes one in
// place, so every reader sees one reload's Settings without the hub's
// mutex.
type Settings struct {
	State    *state.State
	Backends map[string]Backend
	Projects []exposure.Scoped // the services offered, by name, each with its project folder
	Policies map[string]*state.Policy
	Exposure catalog.Exposure
	Offers   []listing.Offer // the services offered, as the lister lists them
}

// NoSettings stands in before the first reload.
var NoSettings = &Settings{State: &state.State{}}

// Backend returns the Backend of a service, or nil.
func (s *Settings) Backend(service string) Backend { return s.Backends[service] }

// HasProfile reports whether the state defines a profile.
func (s *Settings) HasProfile(name string) bool {
	_, ok := s.Exposure.Profiles[name]
	return ok
}

// ProfileNames lists the defined profiles for a message, or "".
func (s *Settings) ProfileNames() string {
	if len(s.Exposure.Profiles) == 0 {
		return " (it defines none)"
	}
	names := make([]string, 0, len(s.Exposure.Profiles))
	for n := range s.Exposure.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return " (its profiles: " + strings.Join(names, ", ") + ")"
}

// HasService reports whether the hub serves a service: declared, enabled,
// and not disabled by its policy.
func (s *Settings) HasService(name string) bool {
	for _, p := range s.Projects {
		if p.Name == name {
			return true
		}
	}
	return false
}

// ServiceNames lists the services the hub serves for a message.
func (s *Settings) ServiceNames() string {
	if len(s.Projects) == 0 {
		return " (it serves none)"
	}
	names := make([]string, 0, len(s.Projects))
	for _, p := range s.Projects {
		names = append(names, p.Name)
	}
	return " (its services: " + strings.Join(names, ", ") + ")"
}

// ProjectRoots are the roots of the project a service is offered in, or
// none for a global service.
func (s *Settings) ProjectRoots(service string) []mcp.Root {
	for _, p := range s.Projects {
		if p.Name == service && p.Project != "" {
			return []mcp.Root{{URI: "file://" + p.Project, Name: service}}
		}
	}
	return nil
}

// MaxSessions is hub { max_sessions }, or its default.
func (s *Settings) MaxSessions() int {
	if s.State != nil && s.State.Hub != nil && s.State.Hub.MaxSessions > 0 {
		return s.State.Hub.MaxSessions
	}
	return config.DefaultMaxSessions
}

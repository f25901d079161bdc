package exposure

import (
	"path"
	"path/filepath"
	"strings"
)

// The exposure modes (hub.tools, profile.exposure).
const (
	All    = "all"
	Search = "search"
	Auto   = "auto"
)

// DefaultThreshold is search_threshold when not set, in tokens.
const DefaultThreshold = 10000

// Hysteresis is the share of the threshold an auto endpoint in search mode
// must fall below to list everything again: a catalogue that hovers around
// the threshold (an upstream failing and coming back) does not flip its
// clients' lists back and forth.
const Hysteresis = 0.8

// Settings are the hub-wide exposure settings.
type Settings struct {
	Mode      string // All, Search or Auto; "" means All
	Threshold int    // tokens; 0 means DefaultThreshold
	Always    []string
}

// Limit returns the threshold in effect.
func (s Settings) Limit() int {
	if s.Threshold > 0 {
		return s.Threshold
	}
	return DefaultThreshold
}

// ModeFor returns the mode configured for an endpoint: the profile's when it
// sets one, else the hub's (All when neither does). It may be Auto.
func (s Settings) ModeFor(p *Profile) string {
	if p != nil && p.Exposure != "" {
		return p.Exposure
	}
	if s.Mode != "" {
		return s.Mode
	}
	return All
}

// Decide returns the mode an auto endpoint uses for a catalogue whose
// offered tools cost tokens in full, given the mode it used before (""
// for none): search above the threshold; all below Hysteresis × threshold;
// in between, what it was (all when it was nothing).
func Decide(prev string, tokens, threshold int) string {
	switch {
	case tokens > threshold:
		return Search
	case float64(tokens) < Hysteresis*float64(threshold):
		return All
	case prev == Search:
		return Search
	default:
		return All
	}
}

// Lists reports whether an endpoint in mode (All or Search) lists the tool
// named full (<service>__<tool>) among the tools it offers.
func (s Settings) Lists(mode, full string) bool {
	return mode != Search || Match(s.Always, full)
}

// A Profile is a toolset served at its own endpoint.
type Profile struct {
	Name     string
	Services []string // empty: every service
	Tools    []string // globs over <service>__<tool>; empty: every tool
	Exposure string   // "" means the hub's mode
}

// HasService reports whether the profile offers a service's tools; a nil
// profile (the whole hub) offers every service.
func (p *Profile) HasService(name string) bool {
	if p == nil || len(p.Services) == 0 {
		return true
	}
	for _, s := range p.Services {
		if s == name {
			return true
		}
	}
	return false
}

// Needs reports whether the profile may offer any tool of a service: it
// has the service and, when it lists tool globs, one of them can match a
// name <service>__…. A hub that serves only the profile starts only the
// services it needs.
func (p *Profile) Needs(service string) bool {
	if !p.HasService(service) {
		return false
	}
	if p == nil || len(p.Tools) == 0 {
		return true
	}
	prefix := FullName(service, "")
	for _, g := range p.Tools {
		lit := g
		if i := strings.IndexAny(g, `*?[\`); i >= 0 {
			lit = g[:i]
		}
		if strings.HasPrefix(lit, prefix) || strings.HasPrefix(prefix, lit) {
			return true
		}
	}
	return false
}

// HasTool reports whether the profile offers the tool named full
// (<service>__<tool>), its service aside.
func (p *Profile) HasTool(full string) bool {
	return p == nil || len(p.Tools) == 0 || Match(p.Tools, full)
}

// FullName is the name globs of profiles and always match: the service's
// name, "__", and the tool's own name, before the hub shortens or
// sanitises it.
func FullName(service, tool string) string { return service + "__" + tool }

// Match reports whether any glob (path.Match syntax) matches name.
func Match(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

// ToolAllowed applies a policy's globs to a service's own tool name:
// disabled hide a tool, and enabled, when set, hide every tool they do not
// match.
func ToolAllowed(disabled, enabled []string, tool string) bool {
	if Match(disabled, tool) {
		return false
	}
	return len(enabled) == 0 || Match(enabled, tool)
}

// A Scoped service: its name and the project folder it is offered in ("" for
// a global service).
type Scoped struct {
	Name    string
	Project string
}

// Visible returns the services a client working under root may use: every
// global service, and the project services whose folder holds root — of
// those, only the ones with the deepest folder, so that a service for
// ~/work/api wins over one for ~/work inside the api checkout. With no root,
// only global services are offered.
func Visible(services []Scoped, root string) map[string]bool {
	out := map[string]bool{}
	deepest := -1
	for _, s := range services {
		if s.Project == "" {
			out[s.Name] = true
			continue
		}
		if root != "" && Within(root, s.Project) && len(s.Project) > deepest {
			deepest = len(s.Project)
		}
	}
	for _, s := range services {
		if s.Project != "" && root != "" && Within(root, s.Project) && len(s.Project) == deepest {
			out[s.Name] = true
		}
	}
	return out
}

// Within reports whether path is dir or inside it.
func Within(path, dir string) bool {
	path, dir = filepath.Clean(path), filepath.Clean(dir)
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}

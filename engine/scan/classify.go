package scan

import (
	"maps"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
)

func classify(loc provider.Location, e provider.Entry, opts Options) (string, string) {
	if !SafeName(e.Name) {
		return StatusInvalid, "the entry's name cannot be used safely"
	}
	if opts.Owned != nil {
		if owned, changed := opts.Owned(loc, e); owned {
			if changed {
				return StatusDrift, "changed since chronicle wrote it"
			}
			return StatusOwned, ""
		}
	}
	if opts.Config == nil {
		return StatusNew, ""
	}
	svc := Declared(opts.Config, loc.Tool, e.Name)
	if svc == nil {
		return StatusNew, ""
	}
	if Same(svc, e) {
		return StatusUnchanged, ""
	}
	tool, scope, _ := svc.OriginParts()
	if tool == loc.Tool && scope == loc.Scope {
		return StatusUpdated, "the configuration changed this entry's definition"
	}
	return StatusConflict, "declared with another definition"
}

// Declared returns the service a tool's entry corresponds to: the service of
// that name, or the one whose origin records this tool's entry name.
func Declared(cfg *config.Config, tool, name string) *config.Service {
	if s := cfg.Service(name); s != nil {
		return s
	}
	for _, s := range cfg.Services {
		if t, _, original := s.OriginParts(); t == tool && original == name {
			return s
		}
	}
	return nil
}

// Same reports whether a tool's entry has the declared definition. Secrets
// are compared by reference, never by value.
func Same(s *config.Service, e provider.Entry) bool {
	if s.Transport != e.Transport || s.Command != e.Command || s.Cwd != e.Cwd {
		return false
	}
	return slices.EqualFunc(s.Args, e.Args, secret.Value.Equal) &&
		mapsEqual(s.Env, e.Env) && mapsEqual(s.Headers, e.Headers) && s.URL.Equal(e.URL)
}

func mapsEqual(a, b map[string]secret.Value) bool {
	return maps.EqualFunc(a, b, secret.Value.Equal)
}

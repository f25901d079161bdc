package scan

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
)

func classify(loc provider.Location, e provider.Entry, opts Options) (string, string) {
	e = provider.InProject(loc, e)
	if !SafeName(e.Name) {
		return StatusInvalid, "the entry's name cannot be used safely"
	}
	if opts.State != nil {
		if rec, changed := opts.records.Ownership(loc.File, loc.KeyPath, e.Name, observe.EntryHash(e)); rec != nil {
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
	switch {
	case svc.Definition.Same(e.Definition):
		return StatusUnchanged, ""
	case svc.Definition.Resolves(e.Definition):
		return StatusUnchanged, "the tool holds the declared secret in plain text"
	}
	differs := strings.Join(svc.Definition.Differences(e.Definition), ", ")
	tool, scope, _ := svc.OriginParts()
	if tool == loc.Tool && scope == loc.Scope {
		return StatusUpdated, "the configuration changed this entry's definition (" + differs + ")"
	}
	return StatusConflict, "declared as " + svc.Name + " with another definition: differs in " + differs
}

// Declared returns the service a tool's entry corresponds to: the service of
// that name, or the one whose origin records this tool's entry name.
func Declared(cfg *config.Config, tool, name string) *service.Service {
	for _, s := range cfg.Services {
		if t, _, original := s.OriginParts(); t == tool && original == name {
			return s
		}
	}
	return cfg.Service(name)
}

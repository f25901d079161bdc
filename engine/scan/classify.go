package scan

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/provider"
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
	svc := opts.declared.Of(loc.Tool, e.Name)
	if svc == nil {
		return StatusNew, ""
	}
	def := opts.Config.ToolDefinition(svc, loc.Tool) // with the service's target for this tool
	switch {
	case def.Same(e.Definition):
		return StatusUnchanged, ""
	case def.Resolves(e.Definition):
		return StatusUnchanged, "the tool holds the declared secret in plain text"
	}
	differs := strings.Join(def.Differences(e.Definition), ", ")
	tool, scope, _ := svc.OriginParts()
	if tool == loc.Tool && scope == loc.Scope {
		return StatusUpdated, "the configuration changed this entry's definition (" + differs + ")"
	}
	return StatusConflict, "declared as " + svc.Name + " with another definition: differs in " + differs
}

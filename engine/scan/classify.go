package scan

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/own"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// classify says what an entry a tool holds is to chronicle: its own
// (owned, or drift when edited since — the ledger's projection and record,
// as the plan compares them), or, against the configuration, new,
// unchanged, updated or a conflict.
func classify(p provider.Provider, loc provider.Location, e provider.Entry, opts Options) (string, string) {
	if !SafeName(e.Name) {
		return StatusInvalid, "the entry's name cannot be used safely"
	}
	if opts.State != nil {
		if recorded := opts.records.EntryAt(loc.File, loc.KeyPath, e.Name); recorded != nil {
			if opts.ManagedUnhashed {
				return StatusOwned, ""
			}
			if own.EntryRecord(p, recorded, &e).Hash != own.EntryHash(p, e, recorded.Extra) {
				return StatusDrift, own.EditedSince
			}
			return StatusOwned, ""
		}
	}
	e = provider.InProject(loc, e)
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

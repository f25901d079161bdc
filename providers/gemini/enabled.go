package gemini

import (
	"path/filepath"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/jsonfile"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
)

// enable applies mcp.excluded, mcp.allowed and the enablement file.
func (g *gemini) enable(loc provider.Location, doc *jsonfile.Document, files provider.Files, entries []provider.Entry) error {
	excluded := doc.Strings("mcp", "excluded")
	allowed := doc.Strings("mcp", "allowed")
	dir := g.userDir.Get()
	if dir == "" {
		dir = filepath.Dir(loc.File)
	}
	if loc.Scope != provider.ScopeUser {
		user, err := jsontool.ParsedJSON(files, filepath.Join(dir, "settings.json"))
		if err != nil {
			return err
		}
		if user != nil {
			excluded = append(excluded, user.Strings("mcp", "excluded")...)
			allowed = append(allowed, user.Strings("mcp", "allowed")...)
		}
	}
	enablement, err := jsontool.ParsedJSON(files, filepath.Join(dir, "mcp-server-enablement.json"))
	if err != nil {
		return err
	}
	for i := range entries {
		name := entries[i].Name
		off := slices.Contains(excluded, name) || (len(allowed) > 0 && !slices.Contains(allowed, name))
		if enablement != nil {
			if on, ok := enablement.Lookup(name, "enabled"); ok && on == false {
				off = true
			}
		}
		if off {
			entries[i].Enabled = false
		}
	}
	return nil
}

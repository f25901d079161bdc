package claude

import (
	"path/filepath"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/jsonfile"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
)

// enable marks the entries Claude has turned off for the project.
func (c *claude) enable(loc provider.Location, doc *jsonfile.Document, files provider.Files, entries []provider.Entry) error {
	var off []string
	switch loc.Scope {
	case provider.ScopeLocal:
		off = doc.Strings("projects", loc.Project, "disabledMcpServers")
	case provider.ScopeProject:
		if file := c.userFile.Get(); file != "" {
			user, err := jsontool.Parsed(files, file, c.parse)
			if err != nil {
				return err
			}
			if user != nil {
				off = user.Strings("projects", loc.Project, "disabledMcpjsonServers")
			}
		}
		for _, rel := range []string{"settings.local.json", "settings.json"} {
			settings, err := jsontool.ParsedJSON(files, filepath.Join(loc.Project, ".claude", rel))
			if err != nil {
				return err
			}
			if settings != nil {
				off = append(off, settings.Strings("disabledMcpjsonServers")...)
			}
		}
	}
	for i := range entries {
		if slices.Contains(off, entries[i].Name) {
			entries[i].Enabled = false
		}
	}
	return nil
}

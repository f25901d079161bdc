package claude

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/jsonfile"
)

// enable marks the entries Claude has turned off for the project.
func (c *claude) enable(loc provider.Location, doc *jsonfile.Document, files provider.Files, entries []provider.Entry) error {
	var off []string
	switch loc.Scope {
	case provider.ScopeLocal:
		off = doc.Strings("projects", loc.Project, "disabledMcpServers")
	case provider.ScopeProject:
		if file := c.userFile.Get(); file != "" {
			user, err := parsed(files, file, c.parse)
			if err != nil {
				return err
			}
			if user != nil {
				off = user.Strings("projects", loc.Project, "disabledMcpjsonServers")
			}
		}
		for _, rel := range []string{"settings.local.json", "settings.json"} {
			settings, err := parsed(files, filepath.Join(loc.Project, ".claude", rel), c.parse)
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

// parsed returns the file at path as files has it parsed by parse; nil when
// it does not exist.
func parsed(files provider.Files, path string, parse func(string, []byte) (*jsonfile.Document, error)) (*jsonfile.Document, error) {
	v, err := files.Parsed(path, func(path string, src []byte) (any, error) { return parse(path, src) })
	if err != nil || v == nil {
		return nil, err
	}
	doc, ok := v.(*jsonfile.Document)
	if !ok {
		return nil, fmt.Errorf("%s: read as %T rather than as JSON", path, v)
	}
	return doc, nil
}

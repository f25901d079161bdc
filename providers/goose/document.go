package goose

import (
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/yamlfile"
)

// A document is one config.yaml, parsed.
type document struct{ doc *yamlfile.Document }

// Entries returns the MCP servers among goose's extensions, in file order.
func (d document) Entries(_ provider.Location, _ provider.Files) ([]provider.Entry, error) {
	return readEntries(d.doc)
}

// Edit returns the file with every edit made, in one pass (see
// yamlfile.Document.Edit). An entry set over a stored one keeps the fields
// chronicle does not own. goose's own extensions (builtin, …) are neither
// replaced nor removed, and a file whose extensions goose could not load is
// not edited at all: its error is Entries'.
func (d document) Edit(edits []provider.Edit) ([]byte, error) {
	if _, err := readEntries(d.doc); err != nil {
		return nil, err
	}
	stored, err := d.doc.Entries([]string{serversKey})
	if err != nil {
		return nil, err
	}
	changes := make([]yamlfile.Change, 0, len(edits))
	for _, ed := range edits {
		if ed.Location.File != d.doc.Path {
			return nil, fmt.Errorf("%s: an edit of %s given to this file", d.doc.Path, ed.Location.File)
		}
		c := yamlfile.Change{KeyPath: []string{serversKey}, Name: ed.Name}
		var old *yamlfile.Entry
		for i := range stored {
			if stored[i].Name == ed.Name {
				old = &stored[i]
			}
		}
		if old != nil {
			if t := storedType(old.Value); !mcpType(t) {
				return nil, fmt.Errorf("%s: %s.%s (line %d) is goose's %s extension, not an MCP server: chronicle neither replaces nor removes it", d.doc.Path, serversKey, ed.Name, old.Line, typeName(t))
			}
		}
		if ed.Entry != nil {
			e := *ed.Entry
			e.Name = ed.Name
			fs, err := fields(e)
			if err != nil {
				return nil, fmt.Errorf("%s: %s.%s: %w", d.doc.Path, serversKey, ed.Name, err)
			}
			if c.Value, err = build(fs, old, ed.Drop); err != nil {
				return nil, fmt.Errorf("%s: %s.%s: %w", d.doc.Path, serversKey, ed.Name, err)
			}
		}
		changes = append(changes, c)
	}
	return d.doc.Edit(changes)
}

func typeName(t string) string {
	if t == "" {
		return "untyped"
	}
	return t
}

package codex

import (
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/tomlfile"
)

// A document is one config.toml, parsed.
type document struct{ doc *tomlfile.Document }

// Entries returns the servers at loc, in file order.
func (d document) Entries(loc provider.Location, _ provider.Files) ([]provider.Entry, error) {
	return readEntries(d.doc, keyPath(loc))
}

// Edit returns the file with every edit made in Codex's syntax, in one
// pass (see tomlfile.Document.Edit). An entry set over a stored one keeps
// the stored keys chronicle does not own.
func (d document) Edit(edits []provider.Edit) ([]byte, error) {
	changes := make([]tomlfile.Change, 0, len(edits))
	for _, ed := range edits {
		if ed.Location.File != d.doc.Path {
			return nil, fmt.Errorf("%s: an edit of %s given to this file", d.doc.Path, ed.Location.File)
		}
		c := tomlfile.Change{KeyPath: keyPath(ed.Location), Name: ed.Name}
		if ed.Entry != nil {
			e := *ed.Entry
			e.Name = ed.Name
			t, err := table(e)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", d.doc.Path, err)
			}
			c.Table = keepUnowned(t, d.doc.Table(c.KeyPath, c.Name), ed.Drop)
		}
		changes = append(changes, c)
	}
	return d.doc.Edit(changes)
}

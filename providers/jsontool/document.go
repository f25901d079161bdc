package jsontool

import (
	"fmt"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/jsonfile"
)

// A document is one of a Tool's files, parsed.
type document struct {
	tool *Tool
	doc  *jsonfile.Document
}

// Entries returns the entries at loc in file order. The parsed file is kept
// whole, so each of the hundreds of locations ~/.claude.json can hold is
// looked up in it, never parsed again.
func (d *document) Entries(loc provider.Location, files provider.Files) ([]provider.Entry, error) {
	members, err := d.doc.Members(loc.KeyPath)
	if err != nil {
		return nil, err
	}
	entries := make([]provider.Entry, 0, len(members))
	for _, m := range members {
		if slices.Contains(d.tool.NotEntries, m.Name) {
			continue
		}
		e, err := d.tool.decode(m)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", d.doc.Path(), entryAddress(loc.KeyPath, m.Name), err)
		}
		entries = append(entries, e)
	}
	if d.tool.Enable != nil {
		if err := d.tool.Enable(loc, d.doc, files, entries); err != nil {
			return nil, err
		}
	}
	return entries, nil
}

// decode reads one stored entry.
func (t *Tool) decode(m jsonfile.Member) (provider.Entry, error) {
	obj, ok := m.Value.(map[string]any)
	if !ok {
		return provider.Entry{}, fmt.Errorf("the entry is not a JSON object")
	}
	f := &Fields{m: obj, syntax: t.Syntax}
	e := provider.Entry{Name: m.Name, Enabled: true}
	t.Decode(f, &e)
	if err := f.Err(); err != nil {
		return provider.Entry{}, err
	}
	e.Extra = t.extra(obj)
	var err error
	if e.Canonical, err = jsonfile.Marshal(t.stable(obj)); err != nil {
		return provider.Entry{}, err
	}
	return e, nil
}

// stable returns obj without the tool's volatile fields.
func (t *Tool) stable(obj map[string]any) map[string]any {
	if len(t.Volatile) == 0 {
		return obj
	}
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		if !slices.Contains(t.Volatile, k) {
			out[k] = v
		}
	}
	return out
}

// Edit returns the file with every edit made, in one pass (see
// jsonfile.Document.Edit). An entry set over a stored one is merged with
// it: the fields chronicle does not own stay.
func (d *document) Edit(edits []provider.Edit) ([]byte, error) {
	changes := make([]jsonfile.Change, 0, len(edits))
	for _, ed := range edits {
		if ed.Location.File != d.doc.Path() {
			return nil, fmt.Errorf("%s: an edit of %s given to this file", d.doc.Path(), ed.Location.File)
		}
		c := jsonfile.Change{KeyPath: ed.Location.KeyPath, Name: ed.Name}
		if slices.Contains(d.tool.NotEntries, ed.Name) {
			return nil, fmt.Errorf("%s: %s: %q is a setting of %s here, not a server: name the entry otherwise", d.doc.Path(), entryAddress(ed.Location.KeyPath, ed.Name), ed.Name, d.tool.Name())
		}
		if ed.Entry != nil {
			e := *ed.Entry
			e.Name = ed.Name
			v, err := d.tool.value(d.doc, ed.Location.KeyPath, e, ed.Drop)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", d.doc.Path(), entryAddress(ed.Location.KeyPath, ed.Name), err)
			}
			c.Value = v
		}
		changes = append(changes, c)
	}
	return d.doc.Edit(changes)
}

// value returns what to store for e at keyPath: e encoded, merged with the
// entry stored there (replaced whole when that is not an object), without
// the fields of drop.
func (t *Tool) value(doc *jsonfile.Document, keyPath []string, e provider.Entry, drop []string) ([]byte, error) {
	at := slices.Concat(keyPath, []string{e.Name})
	stored, _ := doc.Lookup(at...)
	old, ok := stored.(map[string]any)
	if !ok {
		return t.encode(e, nil, true)
	}
	enc, err := t.encode(e, &Fields{m: old, syntax: t.Syntax}, true)
	if err != nil {
		return nil, err
	}
	members, err := doc.Members(at)
	if err != nil {
		return nil, err
	}
	return t.merge(members, enc, drop)
}

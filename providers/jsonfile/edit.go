package jsonfile

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// A Change sets or removes member Name of the object at KeyPath.
type Change struct {
	KeyPath []string
	Name    string
	// Value is the member's new value as standard JSON; nil removes it.
	// When the member exists and both its value and Value are objects,
	// only the fields that differ are touched, so the entry's own comments
	// and layout stay.
	Value []byte
}

// path returns the key path of the member c changes.
func (c Change) path() []string { return slices.Concat(c.KeyPath, []string{c.Name}) }

// Edit returns the document's content with every change made, by the
// layout rules of the package comment: objects missing along a key path are
// created, objects a removal leaves empty go. Every change is made on one
// parse of the document and the result is packed once, so an edit of many
// members costs about as much as an edit of one. The result is parsed again
// and must mean exactly the document with the changes made (verifyChanges);
// otherwise Edit returns an error and no bytes. When no change alters the
// document, Edit returns its content as it was (nil for a missing file).
//
// A member or key held more than once, a value on a key path that is not
// an object, and two changes of one member are errors naming the file.
//
// The last edit of a Document is remembered with the parse that verified
// it: the same changes asked again (apply's transaction after the plan's
// dry run) give the same bytes at once, and Edited gives that parse.
func (d *Document) Edit(changes []Change) ([]byte, error) {
	if d.streamed != nil {
		w, err := d.whole()
		if err != nil {
			return nil, err
		}
		return w.Edit(changes)
	}
	if after := d.lastEdit(changes); after != nil {
		return after.src, nil
	}
	if err := overlapping(changes); err != nil {
		return nil, fmt.Errorf("%s: %w", d.path, err)
	}
	e := &editor{
		d:       d,
		l:       layoutOf(d),
		root:    d.root,
		objects: map[*hujson.Object]*objectEdit{},
	}
	for _, c := range changes {
		if !d.reads(c.KeyPath) {
			return nil, unread(d.path, c.KeyPath)
		}
	}
	wants, err := meanings(changes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.path, err)
	}
	for i, c := range changes {
		if err := e.change(c, wants[i]); err != nil {
			return nil, err
		}
	}
	if !e.changed {
		return d.src, nil
	}
	if err := e.commit(); err != nil {
		return nil, fmt.Errorf("%s: %w", d.path, err)
	}
	out := e.root.Pack()
	after, err := verifyMeaning(d, out, changes, wants)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.path, err)
	}
	d.mu.Lock()
	d.edited = edited{changes: slices.Clone(changes), after: after}
	d.mu.Unlock()
	return out, nil
}

// An edited is a Document's last edit: its changes and the parse of its
// result.
type edited struct {
	changes []Change
	after   *Document
}

// lastEdit returns the parse of the last edit's result when changes are
// that edit's, else nil.
func (d *Document) lastEdit(changes []Change) *Document {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.edited.after == nil || !slices.EqualFunc(changes, d.edited.changes, sameChange) {
		return nil
	}
	return d.edited.after
}

// Edited returns the document that the last Edit of d produced and verified
// when src is its content, else nil: a parse of src that costs nothing.
func (d *Document) Edited(src []byte) *Document {
	if d.streamed != nil {
		if w := d.streamed.built(); w != nil {
			return w.Edited(src)
		}
		return nil // never edited
	}
	d.mu.Lock()
	after := d.edited.after
	d.mu.Unlock()
	if after == nil || src == nil || !bytes.Equal(after.src, src) {
		return nil
	}
	return after
}

func sameChange(a, b Change) bool {
	return a.Name == b.Name && slices.Equal(a.KeyPath, b.KeyPath) &&
		(a.Value == nil) == (b.Value == nil) && bytes.Equal(a.Value, b.Value)
}

// An editor makes changes on a copy of a document's parse. Only the objects
// an edit goes through are copied (see object): an edit of a 2 MB file
// copies a few of its objects, not all of it.
type editor struct {
	d       *Document
	l       layout
	root    hujson.Value
	objects map[*hujson.Object]*objectEdit
	emptied [][]string // key paths a member was removed from
	changed bool
}

// An objectEdit collects what happens to one object of the document: the
// members removed and the members added. Values set in place are set at
// once; removals and additions are made together by commit, so that member
// indices stay valid meanwhile.
type objectEdit struct {
	v       *hujson.Value
	names   names
	removed map[int]bool
	added   *additions
}

// object returns the edit of the object v. The first time, v's object is
// replaced by a copy of itself and its members, which the edit may change:
// the Document's parse stays as it was. The copy shares every byte slice
// with the parse; nothing changes a byte slice in place.
func (e *editor) object(v *hujson.Value) *objectEdit {
	o := v.Value.(*hujson.Object)
	if oe, ok := e.objects[o]; ok {
		return oe
	}
	own := &hujson.Object{Members: slices.Clone(o.Members), AfterExtra: o.AfterExtra}
	v.Value = own
	oe := &objectEdit{v: v, names: e.d.names(o), removed: map[int]bool{}, added: &additions{}}
	e.objects[own] = oe
	return oe
}

// change makes one change; want is what its value means.
func (e *editor) change(c Change, want any) error {
	cur := &e.root
	for i, key := range c.KeyPath {
		oe := e.object(cur)
		switch at := oe.names[key]; len(at) {
		case 0:
			if c.Value == nil {
				return nil // nothing to remove
			}
			// Create what is missing as one new member of the deepest
			// object that exists.
			a := oe.added
			for _, k := range c.KeyPath[i:] {
				a = a.object(k)
			}
			a.add(c.Name, c.Value)
			e.changed = true
			return nil
		case 1:
			cur = &oe.v.Value.(*hujson.Object).Members[at[0]].Value
			if _, ok := cur.Value.(*hujson.Object); !ok {
				return e.d.notObject(cur, c.KeyPath[:i+1])
			}
		default:
			return e.twice(c.KeyPath[:i], key)
		}
	}
	oe := e.object(cur)
	at := oe.names[c.Name]
	if len(at) > 1 {
		return e.twice(c.KeyPath, c.Name)
	}
	switch {
	case c.Value == nil && len(at) == 0:
		return nil
	case c.Value == nil:
		oe.removed[at[0]] = true
		e.emptied = append(e.emptied, c.KeyPath)
		e.changed = true
		return nil
	case len(at) == 0:
		oe.added.add(c.Name, c.Value)
		e.changed = true
		return nil
	}
	old, _ := lookup(e.d.tree, c.path())
	return e.set(oe, at[0], c.path(), old, c.Value, want)
}

// set gives member idx of oe (at keyPath, holding old) the value value,
// which means want. Two objects are matched field by field: fields want
// lacks are removed, changed fields are set in place (recursively) and new
// ones added in want's order.
func (e *editor) set(oe *objectEdit, idx int, keyPath []string, old any, value []byte, want any) error {
	if reflect.DeepEqual(old, want) {
		return nil
	}
	e.changed = true
	m := &oe.v.Value.(*hujson.Object).Members[idx]
	oldFields, oldIsObj := old.(map[string]any)
	wantFields, wantIsObj := want.(map[string]any)
	if _, astIsObj := m.Value.Value.(*hujson.Object); !oldIsObj || !wantIsObj || !astIsObj {
		return e.l.replaceValue(m, value)
	}
	inner := e.object(&m.Value)
	fields, _ := ObjectMembers(value)
	for _, name := range orderedNames(inner) {
		if _, keep := wantFields[name]; !keep {
			if at := inner.names[name]; len(at) > 1 {
				return e.twice(keyPath, name)
			}
			inner.removed[inner.names[name][0]] = true
		}
	}
	for _, f := range fields {
		cur, had := oldFields[f.Name]
		if had && reflect.DeepEqual(cur, f.Value) {
			continue
		}
		fieldValue, err := Marshal(f.Value)
		if err != nil {
			return err
		}
		switch at := inner.names[f.Name]; len(at) {
		case 0:
			inner.added.add(f.Name, fieldValue)
		case 1:
			path := slices.Concat(keyPath, []string{f.Name})
			if err := e.set(inner, at[0], path, cur, fieldValue, f.Value); err != nil {
				return err
			}
		default:
			return e.twice(keyPath, f.Name)
		}
	}
	return nil
}

// orderedNames lists the names of oe's object once each, in file order.
func orderedNames(oe *objectEdit) []string {
	out := make([]string, 0, len(oe.names))
	for i, m := range oe.v.Value.(*hujson.Object).Members {
		if name := nameOf(m.Name); oe.names[name][0] == i {
			out = append(out, name)
		}
	}
	return out
}

func (e *editor) twice(keyPath []string, name string) error {
	where := dotted(keyPath)
	if len(keyPath) == 0 {
		where = "the top-level object"
	}
	return fmt.Errorf("%s: %s holds %q more than once; remove the duplicates by hand first", e.d.path, where, name)
}

// overlapping refuses two changes of one member, and a change inside a
// member another change sets or removes: each change must see the document
// as it was.
func overlapping(changes []Change) error {
	full := make(map[string]bool, len(changes))
	inner := map[string]bool{}
	for _, c := range changes {
		for k := 1; k <= len(c.KeyPath); k++ {
			inner[strings.Join(c.KeyPath[:k], "\x00")] = true
		}
		key := strings.Join(c.path(), "\x00")
		if full[key] {
			return fmt.Errorf("%s is changed twice in one edit", dotted(c.path()))
		}
		full[key] = true
	}
	for _, c := range changes {
		if inner[strings.Join(c.path(), "\x00")] {
			return fmt.Errorf("%s is changed while another change edits inside it", dotted(c.path()))
		}
	}
	return nil
}

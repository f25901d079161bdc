package jsonfile

import (
	"fmt"
	"slices"

	"github.com/tailscale/hujson"
)

// AddString returns the document's content with the string value appended
// to the list at keyPath, such as ["permissions", "deny"], leaving every
// other element, its comments, a trailing comma and the list's layout as
// they were. A missing list is created, with the objects missing above it,
// where Edit places a new member. When the list holds value already, the
// content comes back as it was (nil for a missing file).
//
// The result is parsed again and must mean exactly the document with value
// appended; otherwise AddString returns an error and no bytes. A list that
// holds value more than once, a value at keyPath that is not a list, and a
// value on the way that is not an object are errors naming the file and
// the key path.
func (d *Document) AddString(keyPath []string, value string) ([]byte, error) {
	return d.editString(keyPath, value, false)
}

// RemoveString returns the document's content without the string value in
// the list at keyPath, by the rules of AddString: the element's own line
// goes (or, inline, the blanks before it), comments next to it stay. A
// list the removal empties is written "[]", and goes, with the objects
// above it, by the layout rules of the package comment for an emptied
// server map; so adding an element to a list that did not exist and
// removing it again gives the file back. When the list or value is
// missing, the content comes back as it was.
func (d *Document) RemoveString(keyPath []string, value string) ([]byte, error) {
	return d.editString(keyPath, value, true)
}

// editString adds or removes one string element of the list at keyPath.
func (d *Document) editString(keyPath []string, value string, remove bool) ([]byte, error) {
	if d.streamed != nil {
		w, err := d.whole()
		if err != nil {
			return nil, err
		}
		return w.editString(keyPath, value, remove)
	}
	if len(keyPath) == 0 {
		return nil, fmt.Errorf("%s: a list needs a key path", d.path)
	}
	if !d.reads(keyPath) {
		return nil, unread(d.path, keyPath)
	}
	parent, name := keyPath[:len(keyPath)-1], keyPath[len(keyPath)-1]
	element, err := Marshal(value)
	if err != nil {
		return nil, err
	}
	e := &editor{d: d, l: layoutOf(d), root: d.root, objects: map[*hujson.Object]*objectEdit{}}
	cur := &e.root
	for i, key := range keyPath {
		oe := e.object(cur)
		switch at := oe.names[key]; len(at) {
		case 0:
			if remove {
				return d.src, nil // nothing to remove
			}
			// No list yet: Edit creates it, and what is missing above it.
			return d.Edit([]Change{{KeyPath: parent, Name: name, Value: slices.Concat([]byte("["), element, []byte("]"))}})
		case 1:
			cur = &oe.v.Value.(*hujson.Object).Members[at[0]].Value
		default:
			return nil, e.twice(keyPath[:i], key)
		}
		if _, ok := cur.Value.(*hujson.Object); !ok && i < len(keyPath)-1 {
			return nil, d.notObject(cur, keyPath[:i+1])
		}
	}
	arr, ok := cur.Value.(*hujson.Array)
	if !ok {
		return nil, positionError(d.path, d.text, d.offset(cur.StartOffset), fmt.Errorf("%s is not a list", dotted(keyPath)))
	}
	var at []int
	for i, el := range arr.Elements {
		if s, ok := meaning(el).(string); ok && s == value {
			at = append(at, i)
		}
	}
	switch {
	case len(at) > 1:
		return nil, fmt.Errorf("%s: %s holds %q more than once; remove the duplicates by hand first", d.path, dotted(keyPath), value)
	case remove == (len(at) == 0):
		return d.src, nil // added already, or nothing to remove
	}
	own := &hujson.Array{Elements: slices.Clone(arr.Elements), AfterExtra: arr.AfterExtra}
	cur.Value = own
	if remove {
		removeElements(own, map[int]bool{at[0]: true})
		e.emptied = append(e.emptied, keyPath)
		e.prune()
	} else if err := e.l.appendElement(cur, element); err != nil {
		return nil, fmt.Errorf("%s: %w", d.path, err)
	}
	out := e.root.Pack()
	if err := d.verifyString(out, keyPath, value, remove); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", d.path, dotted(keyPath), err)
	}
	return out, nil
}

// verifyString checks that out, the edited content of d, means exactly d
// with value appended to the list at keyPath, or its one occurrence
// removed: the edit is verified as the change of the member holding the
// list, set to the intended list, or removed when the removal emptied it
// and the list went.
func (d *Document) verifyString(out []byte, keyPath []string, value string, remove bool) error {
	before, _ := lookup(d.tree, keyPath)
	list := slices.Clone(before.([]any))
	if remove {
		list = slices.DeleteFunc(list, func(x any) bool { return x == any(value) })
	} else {
		list = append(list, value)
	}
	c := Change{KeyPath: keyPath[:len(keyPath)-1], Name: keyPath[len(keyPath)-1]}
	after, err := parse(d.path, out, d.read)
	if err != nil {
		return fmt.Errorf("the edited file does not parse (%v)", err)
	}
	if _, kept := lookup(after.tree, keyPath); kept || len(list) > 0 {
		if c.Value, err = Marshal(list); err != nil {
			return err
		}
	}
	wants, err := meanings([]Change{c})
	if err != nil {
		return err
	}
	_, err = verifyMeaning(d, out, []Change{c}, wants)
	return err
}

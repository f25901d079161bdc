package jsonfile

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// verifyChanges checks that out, the edited content of d, means exactly d
// with changes made: every member set holds its intended value, every
// member removed is gone, and everything else means what it meant before.
// Objects left empty along a change's key path may go (see the package
// comment), so they are left out of the comparison on both sides.
func verifyChanges(d *Document, out []byte, changes []Change) error {
	wants, err := meanings(changes)
	if err != nil {
		return err
	}
	return verifyMeaning(d, out, changes, wants)
}

// verifyMeaning is verifyChanges given what each change's value means.
func verifyMeaning(d *Document, out []byte, changes []Change, wants []any) error {
	after, err := Parse(d.path, out)
	if err != nil {
		return fmt.Errorf("the edited file does not parse (%v)", err)
	}
	want := intended(d.tree, changes, wants)
	got := after.tree
	for _, c := range changes {
		full := c.path()
		v, ok := lookup(got, full)
		switch {
		case c.Value == nil && ok:
			return fmt.Errorf("the edited file still holds %s", dotted(full))
		case c.Value != nil && !ok:
			return fmt.Errorf("the edited file lacks %s", dotted(full))
		case c.Value != nil:
			if w, _ := lookup(want, full); !reflect.DeepEqual(v, w) {
				return fmt.Errorf("%s in the edited file differs from the intended value", dotted(full))
			}
		}
	}
	for _, c := range changes {
		prune(want, c.KeyPath)
		prune(got, c.KeyPath)
	}
	if !reflect.DeepEqual(want, got) {
		return errors.New("the edit would change more than the entries it sets or removes")
	}
	return nil
}

// intended returns tree with changes made, sharing every object the
// changes do not go through: only the objects along their key paths are
// copied, so checking an edit of a large file does not copy all of it.
func intended(tree map[string]any, changes []Change, wants []any) map[string]any {
	copied := map[string]map[string]any{}
	own := func(key string, orig any) map[string]any {
		if m, ok := copied[key]; ok {
			return m
		}
		src, _ := orig.(map[string]any)
		m := make(map[string]any, len(src)+1)
		for k, v := range src {
			m[k] = v
		}
		copied[key] = m
		return m
	}
	root := own("", tree)
	for i, c := range changes {
		cur := root
		var key strings.Builder
		for _, k := range c.KeyPath {
			key.WriteString("\x00" + k)
			next := own(key.String(), cur[k])
			cur[k] = next
			cur = next
		}
		if c.Value == nil {
			delete(cur, c.Name)
			continue
		}
		cur[c.Name] = wants[i]
	}
	return root
}

// meanings decodes the value of each change (nil for a removal).
func meanings(changes []Change) ([]any, error) {
	wants := make([]any, len(changes))
	for i, c := range changes {
		if c.Value == nil {
			continue
		}
		if err := decode(c.Value, &wants[i]); err != nil {
			return nil, fmt.Errorf("the new value of %q does not parse: %w", c.Name, err)
		}
	}
	return wants, nil
}

// prune deletes the objects along keyPath that are empty, deepest first
// (never tree itself).
func prune(tree map[string]any, keyPath []string) {
	if len(keyPath) == 0 {
		return
	}
	next, ok := tree[keyPath[0]].(map[string]any)
	if !ok {
		return
	}
	prune(next, keyPath[1:])
	if len(next) == 0 {
		delete(tree, keyPath[0])
	}
}

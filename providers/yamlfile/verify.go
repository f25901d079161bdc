package yamlfile

import (
	"fmt"
	"slices"

	"github.com/chronicle-dev/chronicle/providers/internal/decoded"
)

// verify checks that out, the edited content of d, decodes like d except
// at the changes' entries, each of which must hold what its node decodes
// to, or be absent for a removal. It is the guard against any splice that
// would change more, or less, than the entries edited.
func (d *Document) verify(out []byte, changes []Change, keyPaths [][]string) error {
	got, err := Parse(d.Path, out)
	if err != nil {
		return fmt.Errorf("the edited file does not parse: %w", err)
	}
	dc := make([]decoded.Change, 0, len(changes))
	for _, c := range changes {
		key := append(slices.Clone(c.KeyPath), c.Name)
		v, present := lookupValue(got.Tree, key)
		var want any
		if c.Value != nil {
			if want, err = Decode(c.Value); err != nil {
				return fmt.Errorf("%s: the new entry does not decode: %w", dotted(key), err)
			}
		}
		switch {
		case c.Value == nil && present:
			return fmt.Errorf("the edited file still holds %s", dotted(key))
		case c.Value != nil && !decoded.Equal(want, v):
			return fmt.Errorf("%s in the edited file is not the intended entry", dotted(key))
		}
		dc = append(dc, decoded.Change{KeyPath: c.KeyPath, Name: c.Name, Value: want, Remove: c.Value == nil})
	}
	expect := decoded.With(d.Tree, dc)
	for _, keyPath := range keyPaths {
		// A map emptied by the edit may go, stay as {} or stay as null:
		// all three mean no entries.
		clearEmpty(expect, keyPath)
		clearEmpty(got.Tree, keyPath)
	}
	if !decoded.Equal(expect, got.Tree) {
		if len(changes) == 1 {
			return fmt.Errorf("the edit of %s would change more than that entry", dotted(append(slices.Clone(changes[0].KeyPath), changes[0].Name)))
		}
		return fmt.Errorf("the edit would change more than the %d entries it sets or removes", len(changes))
	}
	return nil
}

// clearEmpty deletes the member at keyPath when it is null or an empty
// map. tree's maps along keyPath must be its own (decoded.With copies them).
func clearEmpty(tree map[string]any, keyPath []string) {
	m := tree
	for _, k := range keyPath[:len(keyPath)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			return
		}
		m = next
	}
	last := keyPath[len(keyPath)-1]
	if v, ok := m[last]; ok {
		if sub, isMap := v.(map[string]any); v == nil || isMap && len(sub) == 0 {
			delete(m, last)
		}
	}
}

// lookupValue returns the value at key and whether it exists.
func lookupValue(tree map[string]any, key []string) (any, bool) {
	m := tree
	for _, k := range key[:len(key)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil, false
		}
		m = next
	}
	v, ok := m[key[len(key)-1]]
	return v, ok
}

package jsonfile

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/chronicle-dev/chronicle/providers/internal/decoded"
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
	_, err = verifyMeaning(d, out, changes, wants)
	return err
}

// verifyMeaning is verifyChanges given what each change's value means; it
// returns the parse of out.
func verifyMeaning(d *Document, out []byte, changes []Change, wants []any) (*Document, error) {
	after, err := parse(d.path, out, d.read)
	if err != nil {
		return nil, fmt.Errorf("the edited file does not parse (%v)", err)
	}
	want := intended(d.tree, changes, wants)
	keyPaths := make([][]string, len(changes))
	for i, c := range changes {
		keyPaths[i] = c.KeyPath
	}
	got := decoded.Own(after.tree, keyPaths) // after is kept (Edited): prune a copy
	for _, c := range changes {
		full := c.path()
		v, ok := lookup(got, full)
		switch {
		case c.Value == nil && ok:
			return nil, fmt.Errorf("the edited file still holds %s", dotted(full))
		case c.Value != nil && !ok:
			return nil, fmt.Errorf("the edited file lacks %s", dotted(full))
		case c.Value != nil:
			if w, _ := lookup(want, full); !reflect.DeepEqual(v, w) {
				return nil, fmt.Errorf("%s in the edited file differs from the intended value", dotted(full))
			}
		}
	}
	for _, c := range changes {
		decoded.Prune(want, c.KeyPath)
		decoded.Prune(got, c.KeyPath)
	}
	if !reflect.DeepEqual(want, got) {
		return nil, errors.New("the edit would change more than the entries it sets or removes")
	}
	return after, nil
}

// intended returns tree with changes made (see decoded.With); wants are
// what the changes' values mean.
func intended(tree map[string]any, changes []Change, wants []any) map[string]any {
	dc := make([]decoded.Change, len(changes))
	for i, c := range changes {
		dc[i] = decoded.Change{KeyPath: c.KeyPath, Name: c.Name, Value: wants[i], Remove: c.Value == nil}
	}
	return decoded.With(tree, dc)
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

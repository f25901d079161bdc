package tomlfile

import (
	"fmt"

	"github.com/chronicle-dev/chronicle/providers/internal/decoded"
)

// verify checks that after, the edited content of d, decodes like d except
// at the intents' keys, each of which must hold what its text decodes to,
// or be absent for a removal. It is the guard against any splice that would
// change more, or less, than the entries edited.
func verify(d *Document, after []byte, intents []intent) error {
	got, _, err := decode(after)
	if err != nil {
		return fmt.Errorf("the edited file does not parse: %w", err)
	}
	for _, in := range intents {
		v, present := lookupValue(got, in.key)
		switch {
		case in.want == nil && present:
			return fmt.Errorf("the edited file still holds [%s]", Dotted(in.key))
		case in.want != nil && !decoded.Equal(in.want, v):
			return fmt.Errorf("[%s] in the edited file is not the intended entry", Dotted(in.key))
		}
	}
	expect := expected(d.Tree, intents)
	for _, in := range intents {
		// A map that held only an entry removed may vanish with it, or
		// stay as an explicit empty [header]: both are the intended change.
		decoded.Prune(expect, in.keyPath)
		decoded.Prune(got, in.keyPath)
	}
	if !decoded.Equal(expect, got) {
		if len(intents) == 1 {
			return fmt.Errorf("the edit of %s would change more than that entry", Dotted(intents[0].key))
		}
		return fmt.Errorf("the edit would change more than the %d entries it sets or removes", len(intents))
	}
	return nil
}

// expected returns tree with the intents made (see decoded.With).
func expected(tree map[string]any, intents []intent) map[string]any {
	dc := make([]decoded.Change, len(intents))
	for i, in := range intents {
		dc[i] = decoded.Change{KeyPath: in.keyPath, Name: in.name, Value: in.want, Remove: in.want == nil}
	}
	return decoded.With(tree, dc)
}

// lookupValue returns the value at key, of any kind, and whether it exists.
func lookupValue(tree map[string]any, key []string) (any, bool) {
	m, err := lookup(tree, key[:len(key)-1])
	if err != nil || m == nil {
		return nil, false
	}
	v, ok := m[key[len(key)-1]]
	return v, ok
}

// intended decodes the text rendered for key and returns the entry's value.
func intended(text []byte, key []string) (map[string]any, error) {
	tree, _, err := decode(text)
	if err != nil {
		return nil, fmt.Errorf("the rendered entry does not parse: %w", err)
	}
	m := tree
	for _, k := range key {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("the rendered entry does not hold %s", Dotted(key))
		}
		m = next
	}
	return m, nil
}

package tomlfile

import (
	"fmt"
	"math"
	"reflect"
)

// verify checks that after decodes like before except at key, which must be
// want, or absent when want is nil. It is the guard against any splice that
// would change more, or less, than the one entry.
func verify(before, after []byte, key []string, want map[string]any) error {
	got, _, err := decode(after)
	if err != nil {
		return fmt.Errorf("the edited file does not parse: %w", err)
	}
	expect, _, err := decode(before)
	if err != nil {
		return fmt.Errorf("the original file does not parse: %w", err)
	}
	parent := expect
	for _, k := range key[:len(key)-1] {
		next, ok := parent[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			parent[k] = next
		}
		parent = next
	}
	if want == nil {
		delete(parent, key[len(key)-1])
	} else {
		parent[key[len(key)-1]] = want
	}
	// A map that held only this entry may vanish with it, or stay as an
	// explicit empty [header]: both are the intended change.
	prune(expect, key[:len(key)-1])
	prune(got, key[:len(key)-1])
	if !equal(expect, got) {
		return fmt.Errorf("the edit of %s would change more than that entry", Dotted(key))
	}
	return nil
}

// prune deletes the empty maps along path, deepest first.
func prune(tree map[string]any, path []string) {
	if len(path) == 0 {
		return
	}
	next, ok := tree[path[0]].(map[string]any)
	if !ok {
		return
	}
	prune(next, path[1:])
	if len(next) == 0 {
		delete(tree, path[0])
	}
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

// equal compares decoded TOML values; unlike reflect.DeepEqual it holds
// nan equal to nan, since a file's nan is unchanged by an edit elsewhere.
func equal(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		return ok && equalSlices(a, b)
	case []map[string]any:
		b, ok := b.([]map[string]any)
		return ok && equalSlices(a, b)
	case float64:
		b, ok := b.(float64)
		return ok && (a == b || math.IsNaN(a) && math.IsNaN(b))
	}
	return reflect.DeepEqual(a, b)
}

func equalSlices[T any](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

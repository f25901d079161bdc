package decoded

import (
	"math"
	"reflect"
)

// Equal compares decoded values (maps, lists, scalars, as the TOML and
// YAML parsers give them); unlike reflect.DeepEqual it holds NaN equal to
// NaN, since a file's nan is unchanged by an edit elsewhere in it.
func Equal(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !Equal(v, w) {
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
		if !Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

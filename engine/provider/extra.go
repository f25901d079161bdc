package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Extra holds keys of one entry that the tool's provider does not model
// (Gemini's trust, Cursor's envFile, Codex's startup_timeout_sec), with
// JSON-like values: nil, string, bool, int64, float64, []any and
// map[string]any, and nothing else (see Normal).
//
// Read from a tool, an entry's Extra holds every such key it has. Declared
// (target "TOOL" { extra = { … } }), it holds the keys chronicle writes as
// given and owns from then on: a later edit that no longer declares one of
// them removes it (Edit.Drop), while the keys chronicle never wrote stay
// as the user left them.
type Extra map[string]any

// UnmarshalJSON reads an Extra back from a saved plan with its numbers as
// they were written (a whole number stays an int64, never a float64).
func (x *Extra) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return err
	}
	if m == nil {
		*x = nil
		return nil
	}
	out := make(Extra, len(m))
	for k, v := range m {
		n, ok := Normal(v)
		if !ok {
			return fmt.Errorf("extra key %q: a %T is not a JSON value", k, v)
		}
		out[k] = n
	}
	*x = out
	return nil
}

// Keys returns the keys of x, sorted; nil when there are none.
func (x Extra) Keys() []string {
	if len(x) == 0 {
		return nil
	}
	out := make([]string, 0, len(x))
	for k := range x {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Only returns the keys of x that keys lists; nil when none.
func (x Extra) Only(keys []string) Extra {
	var out Extra
	for _, k := range keys {
		if v, ok := x[k]; ok {
			if out == nil {
				out = Extra{}
			}
			out[k] = v
		}
	}
	return out
}

// Holds reports whether x has every key of want with the same value: an
// entry read from a tool holds the declared extra keys, whatever other keys
// it has besides.
func (x Extra) Holds(want Extra) bool {
	for k, v := range want {
		got, ok := x[k]
		if !ok || !SameValue(got, v) {
			return false
		}
	}
	return true
}

// Equal reports whether x and o have the same keys with the same values.
func (x Extra) Equal(o Extra) bool { return len(x) == len(o) && x.Holds(o) }

// SameValue reports whether two JSON-like values mean the same: numbers
// are compared by value (20 and 20.0 are the same), maps by their keys.
func SameValue(a, b any) bool {
	x, err1 := json.Marshal(numbers(a))
	y, err2 := json.Marshal(numbers(b))
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// numbers turns whole floats into int64, so that 20.0 and 20 marshal alike.
func numbers(v any) any {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = numbers(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = numbers(e)
		}
		return out
	}
	return v
}

// Normal returns v in the form Extra holds, from what a JSON or TOML
// decoder gives (json.Number, int, []map[string]any, …); ok is false for a
// value JSON has no form for (a TOML date, NaN).
func Normal(v any) (any, bool) {
	switch x := v.(type) {
	case nil, string, bool, int64:
		return x, true
	case int:
		return int64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case json.Number:
		if n, err := strconv.ParseInt(x.String(), 10, 64); err == nil {
			return n, true
		}
		f, err := x.Float64()
		return f, err == nil && !math.IsInf(f, 0)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			n, ok := Normal(e)
			if !ok {
				return nil, false
			}
			out[i] = n
		}
		return out, true
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			n, ok := Normal(e)
			if !ok {
				return nil, false
			}
			out[i] = n
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			n, ok := Normal(e)
			if !ok {
				return nil, false
			}
			out[k] = n
		}
		return out, true
	}
	return nil, false
}

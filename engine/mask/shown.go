package mask

import "github.com/chronicle-dev/chronicle/engine/secret"

// Shown renders a value for output: a whole reference as secret("env:X"),
// references inside text as ${secret("env:X")}, and literal text masked when
// it looks secret, by the key it sits under or by its shape.
func Shown(key string, v secret.Value) string {
	if ref, ok := v.OnlyRef(); ok {
		return ref.HCL()
	}
	if lit, ok := v.Literal(); ok {
		return Named(key, lit)
	}
	s, _ := v.Render(Value, func(r secret.Ref) (string, error) { return "${" + r.HCL() + "}", nil })
	return s
}

// ShownList renders a list of arguments with Shown: the value after a
// secret flag (--password hunter2) and a secret flag's inline value
// (--token=abc) are masked like a value under that name.
func ShownList(vs []secret.Value) []string {
	out := make([]string, len(vs))
	prev := ""
	for i, v := range vs {
		out[i] = shownArg(prev, v)
		prev, _ = v.Literal()
	}
	return out
}

// ShownMap renders a map of values with Shown, each under its key; nil when
// empty.
func ShownMap(m map[string]secret.Value) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = Shown(k, v)
	}
	return out
}

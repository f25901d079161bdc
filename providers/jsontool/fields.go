package jsontool

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

// Fields reads the members of one stored entry, turning the tool's
// references into secret references. The first field of a wrong type is
// remembered and reported by Err; its getter returns the zero value.
type Fields struct {
	m      map[string]any
	syntax refsyntax.Syntax
	err    error
	parent *Fields // an Object's errors are its parent's
	key    string  // the key of this object in parent
}

// Has reports whether the entry sets key to something other than null.
func (f *Fields) Has(key string) bool { return f.m[key] != nil }

// Raw returns the decoded value of key (json.Number for numbers).
func (f *Fields) Raw(key string) any { return f.m[key] }

// Text returns key as plain text, with no references.
func (f *Fields) Text(key string) string {
	s, _ := f.scalar(key, f.m[key])
	return s
}

// Value returns key as a value that may hold references.
func (f *Fields) Value(key string) secret.Value {
	s, _ := f.scalar(key, f.m[key])
	return f.syntax.In(f.field(key)).Parse(s)
}

// Values returns the list at key, each element read as Value.
func (f *Fields) Values(key string) []secret.Value {
	var out []secret.Value
	syntax := f.syntax.In(f.field(key))
	for _, s := range f.Strings(key) {
		out = append(out, syntax.Parse(s))
	}
	return out
}

// field is the entry's top-level key that key belongs to: key itself, or
// the key of the object (env, headers) these fields are.
func (f *Fields) field(key string) string {
	if f.parent != nil {
		return f.key
	}
	return key
}

// Strings returns the list of plain strings at key, nil when absent.
func (f *Fields) Strings(key string) []string {
	v := f.m[key]
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		f.fail(key, "a list")
		return nil
	}
	out := make([]string, 0, len(list))
	for _, x := range list {
		s, _ := f.scalar(key, x)
		out = append(out, s)
	}
	return out
}

// Map returns the object at key with its values read as Value.
func (f *Fields) Map(key string) map[string]secret.Value {
	obj := f.Object(key)
	if obj == nil || len(obj.m) == 0 {
		return nil
	}
	out := make(map[string]secret.Value, len(obj.m))
	for k := range obj.m {
		out[k] = obj.Value(k)
	}
	return out
}

// Object returns the object at key, nil when absent.
func (f *Fields) Object(key string) *Fields {
	v := f.m[key]
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		f.fail(key, "an object")
		return nil
	}
	return &Fields{m: m, syntax: f.syntax, parent: f, key: key}
}

// Bool returns key as a boolean, and whether it is set.
func (f *Fields) Bool(key string) (v, set bool) {
	switch b := f.m[key].(type) {
	case nil:
		return false, false
	case bool:
		return b, true
	}
	f.fail(key, "true or false")
	return false, false
}

// Duration returns the number at key times unit; zero when absent.
func (f *Fields) Duration(key string, unit time.Duration) time.Duration {
	switch n := f.m[key].(type) {
	case nil:
		return 0
	case json.Number:
		if x, err := n.Float64(); err == nil && x >= 0 && x < float64(1<<62)/float64(unit) {
			return time.Duration(x * float64(unit))
		}
	}
	f.fail(key, "a non-negative number")
	return 0
}

// Err returns the first field of a wrong type.
func (f *Fields) Err() error { return f.err }

// scalar returns a string, number or boolean as text.
func (f *Fields) scalar(key string, v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", false
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return fmt.Sprint(x), true
	}
	f.fail(key, "a string")
	return "", false
}

func (f *Fields) fail(key, want string) {
	if f.parent != nil {
		f.parent.fail(f.key+"."+key, want)
		return
	}
	if f.err == nil {
		f.err = fmt.Errorf("%s: want %s", key, want)
	}
}

// Stdio reads command, args and the environment (under envKey) into e.
func (f *Fields) Stdio(e *provider.Entry, envKey string) {
	e.Command = f.Text("command")
	e.Args = f.Values("args")
	e.Env = f.Map(envKey)
}

// Remote reads the URL (under urlKey) and headers into e.
func (f *Fields) Remote(e *provider.Entry, urlKey string) {
	e.URL = f.Value(urlKey)
	e.Headers = f.Map("headers")
}

package goose

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// entryFields reads the fields of one stored extension. The first field of
// a wrong type is remembered and reported by err; its getter returns the
// zero value.
type entryFields struct {
	m   map[string]any
	err error
}

func (f *entryFields) fail(key, want string) {
	if f.err == nil {
		f.err = fmt.Errorf("%s: want %s", key, want)
	}
}

// scalar returns a string, number or boolean as text.
func (f *entryFields) scalar(key string, v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int, int64, uint64, float64, bool:
		return fmt.Sprint(x)
	}
	f.fail(key, "a string")
	return ""
}

func (f *entryFields) str(key string) string { return f.scalar(key, f.m[key]) }

// strings returns the list at key, nil when absent or null.
func (f *entryFields) strings(key string) []string {
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
		out = append(out, f.scalar(key, x))
	}
	return out
}

// strMap returns the map at key with its values as text, nil when absent.
func (f *entryFields) strMap(key string) map[string]string {
	v := f.m[key]
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		f.fail(key, "a mapping")
		return nil
	}
	out := make(map[string]string, len(m))
	for k, x := range m {
		out[k] = f.scalar(key+"."+k, x)
	}
	return out
}

// boolean returns key as true or false, and whether it is set.
func (f *entryFields) boolean(key string) (v, set bool) {
	switch b := f.m[key].(type) {
	case nil:
		return false, false
	case bool:
		return b, true
	}
	f.fail(key, "true or false")
	return false, false
}

// seconds returns a non-negative whole number at key, 0 when absent.
func (f *entryFields) seconds(key string) int64 {
	switch n := f.m[key].(type) {
	case nil:
		return 0
	case int:
		if n >= 0 && int64(n) <= math.MaxInt64/int64(time.Second) {
			return int64(n)
		}
	case uint64:
		if n <= math.MaxInt64/uint64(time.Second) {
			return int64(n)
		}
	}
	f.fail(key, "a whole number of seconds")
	return 0
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, strings.Compare)
	return keys
}

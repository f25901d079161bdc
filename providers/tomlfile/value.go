package tomlfile

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// inline writes v as an inline TOML value.
func inline(v any) (string, error) {
	if t, ok := v.(Table); ok {
		return inlineFields(t)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		parts := make([]string, rv.Len())
		for i := range parts {
			s, err := inline(rv.Index(i).Interface())
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return "", fmt.Errorf("a map with %s keys has no TOML form", rv.Type().Key())
		}
		t := make(Table, 0, rv.Len())
		for _, k := range rv.MapKeys() {
			t = append(t, Field{k.String(), rv.MapIndex(k).Interface()})
		}
		slices.SortFunc(t, func(a, b Field) int { return strings.Compare(a.Key, b.Key) })
		return inlineFields(t)
	case reflect.Invalid:
		return "", fmt.Errorf("TOML has no null value")
	}
	return scalar(v)
}

func inlineFields(t Table) (string, error) {
	if len(t) == 0 {
		return "{}", nil
	}
	parts := make([]string, len(t))
	for i, f := range t {
		s, err := inline(f.Value)
		if err != nil {
			return "", err
		}
		parts[i] = quoteKey(f.Key) + " = " + s
	}
	return "{ " + strings.Join(parts, ", ") + " }", nil
}

// scalar writes a string, number, bool or time with BurntSushi's encoder,
// which knows TOML's escapes, float forms and local dates and times.
func scalar(v any) (string, error) {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(map[string]any{"v": v}); err != nil {
		return "", err
	}
	s, ok := strings.CutPrefix(b.String(), "v = ")
	s, nl := strings.CutSuffix(s, "\n")
	if !ok || !nl || strings.Contains(s, "\n") {
		return "", fmt.Errorf("a %T has no inline TOML form", v)
	}
	return s, nil
}

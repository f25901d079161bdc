package yamlfile

import (
	"strings"
	"testing"
)

// entry builds a mapping from key, value pairs.
func entry(t testing.TB, kv ...any) *Map {
	t.Helper()
	m := NewMap()
	for i := 0; i+1 < len(kv); i += 2 {
		if err := m.Add(kv[i].(string), kv[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func set(name string, m *Map) Change {
	return Change{KeyPath: []string{"extensions"}, Name: name, Value: m.Node()}
}

func unset(name string) Change { return Change{KeyPath: []string{"extensions"}, Name: name} }

// edit parses src and makes changes, failing the test on an error.
func edit(t testing.TB, src string, changes ...Change) string {
	t.Helper()
	d, err := Parse("config.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.Edit(changes)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// editErr parses src and makes changes, which must fail with an error
// that holds every one of want.
func editErr(t testing.TB, src string, want []string, changes ...Change) {
	t.Helper()
	d, err := Parse("config.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.Edit(changes)
	if err == nil {
		t.Fatalf("edit succeeded:\n%s", out)
	}
	if out != nil {
		t.Errorf("an error with bytes: %q", out)
	}
	for _, w := range append(want, "config.yaml") {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}

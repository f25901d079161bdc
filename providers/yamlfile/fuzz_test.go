package yamlfile

import (
	"errors"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// FuzzReadAndEdit reads any bytes: Parse and Entries give a document or a
// *provider.ParseError and never panic; removing each entry, and adding
// one, either is refused with an error or gives bytes that Edit verified —
// and removing the added entry again gives back the bytes it started from.
func FuzzReadAndEdit(f *testing.F) {
	for _, seed := range []string{goose, "", "extensions:\n", "extensions: {}\n", "a: 1\n",
		"extensions:\r\n  a:\r\n    enabled: true\r\n",
		"extensions:\n    a:\n        x: |\n          text\n          # tail\n",
		"base: &b {x: 1}\nextensions:\n  a: *b\n",
		"extensions: [1]\n", "- a\n", "extensions:\n  a: {x: 1}\n  b:\n    x: 2\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse("config.yaml", data)
		var pe *provider.ParseError
		if err != nil {
			if !errors.As(err, &pe) {
				t.Fatalf("Parse: %v is not a *provider.ParseError", err)
			}
			return
		}
		entries, err := d.Entries([]string{"extensions"})
		if err != nil {
			if !errors.As(err, &pe) {
				t.Fatalf("Entries: %v is not a *provider.ParseError", err)
			}
			return
		}
		for _, e := range entries {
			d.Edit([]Change{{KeyPath: []string{"extensions"}, Name: e.Name}})
		}
		m := NewMap()
		m.Add("enabled", true)
		m.Add("args", []string{"-y", "# not a comment"})
		out, err := d.Edit([]Change{{KeyPath: []string{"extensions"}, Name: "chronicle-fuzz", Value: m.Node()}})
		if _, held := d.Tree["extensions"]; err != nil || entryNamed(entries, "chronicle-fuzz") || held && len(entries) == 0 {
			// A map with no entries is not given back as it was written
			// ("extensions: {}" goes with its last entry).
			return
		}
		again, err := Parse("config.yaml", out)
		if err != nil {
			t.Fatalf("the edited file does not parse: %v\n%q", err, out)
		}
		back, err := again.Edit([]Change{{KeyPath: []string{"extensions"}, Name: "chronicle-fuzz"}})
		if err != nil {
			t.Fatalf("removing the added entry: %v\n%q", err, out)
		}
		if string(back) != string(data) && !(len(data) > 0 && data[len(data)-1] != '\n' && string(back) == string(data)+eol(data)) {
			t.Fatalf("adding and removing changed the file:\n%q\n%q", data, back)
		}
	})
}

func entryNamed(entries []Entry, name string) bool {
	for _, e := range entries {
		if e.Name == name {
			return true
		}
	}
	return false
}

package tomlfile

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// FuzzSplice checks the splicer on any document both parsers accept: adding
// an absent entry and removing it again gives back the same bytes, and
// removing a present entry changes nothing else (Delete verifies that
// itself). A refusal (an inline server map) is fine; a failed verification
// is a bug.
func FuzzSplice(f *testing.F) {
	for _, doc := range documents(f) {
		for _, name := range []string{"new", "weird.name", "postgres", "chronova-remote", "a", "x"} {
			f.Add(doc, name)
		}
	}
	f.Add([]byte("a = 1\n"), "\x9f") // not UTF-8: Set refuses it
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		if !utf8.ValidString(name) {
			if _, err := Set(data, servers, name, sample); err == nil {
				t.Fatalf("Set(%q) accepted a name that is not UTF-8", name)
			}
			return
		}
		doc, err := Parse("fuzz.toml", data)
		if err != nil {
			return
		}
		exprs, err := layout(data)
		if err != nil {
			return // a document only BurntSushi accepts: edits refuse it
		}
		if _, err := pieces(exprs, append(servers, name)); err != nil {
			return
		}
		if m, _ := lookup(doc.Tree, servers); m != nil && m[name] != nil {
			if _, err := Delete(data, servers, name); err != nil {
				t.Fatalf("Delete(%q): %v\n%s", name, err, data)
			}
			return
		}
		added, err := Set(data, servers, name, sample)
		if err != nil {
			t.Fatalf("Set(%q): %v\n%s", name, err, data)
		}
		removed, err := Delete(added, servers, name)
		if err != nil {
			t.Fatalf("Delete(%q) after Set: %v\n%s", name, err, added)
		}
		if !bytes.Equal(removed, data) {
			t.Fatalf("add then remove of %q:\n got %q\nwant %q", name, removed, data)
		}
	})
}

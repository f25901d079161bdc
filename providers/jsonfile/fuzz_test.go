package jsonfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tailscale/hujson"
)

// FuzzSetRemove feeds arbitrary documents: parsing, setting and removing
// never panic; whatever set writes verifies; and adding an entry, then
// removing it, gives back the document byte for byte — except where the
// layout rules (doc.go) say otherwise: when the deepest object of the key
// path that exists is empty, it may be written "{}" or removed with the
// entry.
func FuzzSetRemove(f *testing.F) {
	for _, tc := range fixtureFiles {
		b, err := os.ReadFile(filepath.Join(fixtures, tc.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"s": { "m": 1, }}`))
	f.Add([]byte("{\n  // servers\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}, // a\n  },\n  \"other\": [1, 2]\n}\n"))
	f.Add([]byte(`{"projects": {"p": {"history": []}}, "mcpServers": {}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		const value = `{"a":[1,"${X}"]}`
		for _, kp := range [][]string{{"mcpServers"}, {"s"}, {"projects", "p", "mcpServers"}} {
			identical := addRemovesCleanly(src, kp, "n")
			added, err := set("f", src, kp, "n", []byte(value))
			if err != nil {
				continue
			}
			if err := verify("f", src, added, kp, "n", []byte(value)); err != nil {
				t.Fatalf("set gave a wrong document: %v\n%q\n%q", err, src, added)
			}
			removed, err := remove("f", added, kp, "n")
			if err != nil {
				t.Fatalf("remove after set failed: %v\n%q", err, added)
			}
			if identical && !bytes.Equal(removed, src) {
				t.Fatalf("add then remove at %v changed the document:\nbefore: %q\nadded:  %q\nafter:  %q", kp, src, added, removed)
			}
		}
	})
}

// addRemovesCleanly reports whether adding member name at keyPath of src and
// removing it again must give back src byte for byte: src parses, name is
// not there yet, and the deepest object of keyPath that exists has members.
func addRemovesCleanly(src []byte, keyPath []string, name string) bool {
	d, err := Parse("f", src)
	if err != nil {
		return false
	}
	var deepest *hujson.Value
	k := len(keyPath)
	for ; k >= 0; k-- {
		if v := find(&d.root, keyPath[:k]); v != nil {
			if _, ok := v.Value.(*hujson.Object); ok {
				deepest = v
				break
			}
			return false // a value on the key path that is not an object
		}
	}
	if deepest == nil {
		return false
	}
	members := deepest.Value.(*hujson.Object).Members
	if k == len(keyPath) {
		for _, m := range members {
			if nameOf(m.Name) == name {
				return false
			}
		}
	}
	return len(members) > 0
}

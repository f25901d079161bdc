package jsonfile

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzSetRemove feeds arbitrary documents: parsing, setting and removing
// never panic, and whatever set writes verifies or is reported.
func FuzzSetRemove(f *testing.F) {
	for _, tc := range fixtureFiles {
		b, err := os.ReadFile(filepath.Join(fixtures, tc.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"s": { "m": 1, }}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, kp := range [][]string{{"mcpServers"}, {"s"}, {"projects", "p", "mcpServers"}} {
			added, err := set("f", src, kp, "n", []byte(`{"a":[1,"${X}"]}`))
			if err != nil {
				continue
			}
			if err := verify("f", src, added, kp, "n", []byte(`{"a":[1,"${X}"]}`)); err != nil {
				t.Fatalf("set gave a wrong document: %v\n%q\n%q", err, src, added)
			}
			if _, err := remove("f", added, kp, "n"); err != nil {
				t.Fatalf("remove after set failed: %v\n%q", err, added)
			}
		}
	})
}

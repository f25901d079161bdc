package skills

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// countingSums is a FileSums that reads every file and counts the asks.
type countingSums struct{ asked atomic.Int32 }

func (c *countingSums) FileSum(r fsys.Reader, path string, _ fs.FileInfo) ([]byte, error) {
	c.asked.Add(1)
	return FileSum(r, path)
}

// A Hasher gives what Hash gives, asks the FileSums it was handed for each
// file once per tree.
func TestHasher(t *testing.T) {
	dir := writeSkill(t, t.TempDir(), "review", "---\nname: review\ndescription: Reviews.\n---\n")
	if err := os.WriteFile(filepath.Join(dir, "ref.md"), []byte("reference\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := Hash(fsys.OS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	sums := &countingSums{}
	h := NewHasher(fsys.OS{}, sums)
	h.HashAll([]string{dir, dir, dir, dir, dir, dir, dir, dir, dir, dir, dir, dir})
	for range 3 {
		if got, err := h.Hash(dir); got != want || err != nil {
			t.Fatalf("Hasher: %s, %v; Hash: %s", got, err, want)
		}
	}
	if n := sums.asked.Load(); n != 2 {
		t.Fatalf("the FileSums was asked %d times for a tree of 2 files hashed 15 times, want 2", n)
	}

	store := filepath.Join(t.TempDir(), "store", "review") // never written
	plain := NewHasher(fsys.OS{}, nil)
	if got, err := plain.Hash(dir); got != want || err != nil {
		t.Fatalf("a Hasher without sums: %s, %v, want %s", got, err, want)
	}
	if _, err := plain.Hash(store); err == nil {
		t.Fatal("a missing folder hashed without an error")
	}
}

// The tree hash is recorded in states: its lines are exactly the ones fmt
// wrote before ("%c %q\n", then "-> %q\n" or "%x\n").
func TestDigestKeepsItsFormat(t *testing.T) {
	items := []treeItem{
		{rel: "SKILL.md", kind: 'f', sum: []byte{0xde, 0xad}},
		{rel: "scripts/run \"x\".sh", kind: 'x', sum: []byte{0x01}},
		{rel: "link", kind: 'l', link: "../é\tother"},
	}
	// sorted by rel: SKILL.md, link, scripts/…
	h := sha256.New()
	for _, it := range []treeItem{items[0], items[2], items[1]} {
		fmt.Fprintf(h, "%c %q\n", it.kind, it.rel)
		if it.kind == 'l' {
			fmt.Fprintf(h, "-> %q\n", it.link)
			continue
		}
		fmt.Fprintf(h, "%x\n", it.sum)
	}
	want := "sha256:" + hex.EncodeToString(h.Sum(nil))
	if got := digest(items); got != want {
		t.Fatalf("digest %s, want %s", got, want)
	}
}

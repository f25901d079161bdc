package skills

import (
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

package hashcache

import (
	"os"
	"path/filepath"
	"testing"
)

func TestTheFileHoldsAtMostMaxEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	c := Load(path, nil)
	for i := range MaxEntries + 500 {
		c.added[key{dev: 1, ino: uint64(i), size: 10, mtime: 1, ctime: 1}] = [32]byte{byte(i)}
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(len(magic) + MaxEntries*recordSize); info.Size() != want {
		t.Fatalf("the cache file holds %d bytes, want %d (MaxEntries records)", info.Size(), want)
	}
	if again := Load(path, nil); len(again.loaded) != MaxEntries {
		t.Fatalf("loaded %d entries back, want %d", len(again.loaded), MaxEntries)
	}
}

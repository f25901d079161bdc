package jsonfile

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestLoadCacheFollowsTheFile: a cached document is served only while the
// file is unchanged; an in-place write or a rename over it is read again.
func TestLoadCacheFollowsTheFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(p, []byte(`{"a": 1}`), 0o644)
	d1, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if d2, _ := Load(p); d2 != d1 {
		t.Fatal("an unchanged file was parsed again")
	}
	was := mustStat(t, p).ModTime()
	os.WriteFile(p, []byte(`{"a": 2}`), 0o644) // same size, new content
	// A write shows as a new modification time; set it, rather than wait
	// for the clock, on file systems with a coarse one.
	os.Chtimes(p, time.Time{}, was.Add(time.Second))
	d3, _ := Load(p)
	if string(d3.Bytes()) != `{"a": 2}` {
		t.Fatalf("a rewritten file was served from the cache: %s", d3.Bytes())
	}
	tmp := p + ".new"
	os.WriteFile(tmp, []byte(`{"a": 3}`), 0o644)
	os.Chtimes(tmp, time.Time{}, mustStat(t, p).ModTime())
	os.Rename(tmp, p) // same size and time, another inode
	if d4, _ := Load(p); string(d4.Bytes()) != `{"a": 3}` {
		t.Fatalf("a file replaced by a rename was served from the cache: %s", d4.Bytes())
	}
}

func mustStat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

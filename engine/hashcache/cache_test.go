package hashcache_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hashcache"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// skillTree writes a skill of three files whose times are an hour old, as
// the files of an installed skill are.
func skillTree(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "review")
	files := map[string]string{"SKILL.md": "---\nname: review\n---\nReview.\n", "ref.md": "reference\n", "scripts/run.sh": "#!/bin/sh\n"}
	old := time.Now().Add(-time.Hour)
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// opens counts the files read through the returned reader.
func opens() (fsys.Reader, func() int) {
	n := 0
	rec := &fsys.Recorder{System: fsys.OS{}, Before: func(op fsys.Op) error {
		if op.Name == "Open" {
			n++
		}
		return nil
	}}
	return rec, func() int { return n }
}

// run is one command: it loads the cache, hashes dir through it and saves
// the cache (as apply does). It returns the hash and how many files it read.
//
// Its clock is an hour ahead: the files were last changed (their ctime,
// which a test cannot set back) long before they are hashed, as a skill's
// files are in a home. After saving, the cache file's time is moved on as
// well, as the next command comes later.
func run(t *testing.T, cachePath, dir string, save bool) (string, int) {
	t.Helper()
	later := time.Now().Add(time.Hour)
	c := hashcache.Load(cachePath, func() time.Time { return later })
	r, count := opens()
	h, err := c.Hasher(r).Hash(dir)
	if err != nil {
		t.Fatal(err)
	}
	if save {
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(cachePath, later, later); err != nil {
			t.Fatal(err)
		}
	}
	return h, count()
}

func TestTheNextRunReadsNoUnchangedFile(t *testing.T) {
	dir := skillTree(t)
	cachePath := filepath.Join(t.TempDir(), hashcache.FileName)
	want, err := skills.Hash(fsys.OS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	h, n := run(t, cachePath, dir, false) // a plan: reads, never writes
	if h != want || n != 3 {
		t.Fatalf("first plan: hash %s after reading %d files, want %s after 3", h, n, want)
	}
	if _, err := os.Stat(cachePath); !os.IsNotExist(err) {
		t.Fatalf("a run that does not save wrote the cache (%v)", err)
	}
	run(t, cachePath, dir, true) // an apply
	h, n = run(t, cachePath, dir, false)
	if h != want || n != 0 {
		t.Fatalf("plan after apply: hash %s after reading %d files, want %s from the cache alone", h, n, want)
	}
}

func TestAChangedFileIsReadAgain(t *testing.T) {
	dir := skillTree(t)
	cachePath := filepath.Join(t.TempDir(), hashcache.FileName)
	run(t, cachePath, dir, true)
	// The same size, and the same modification time put back: only the
	// change time (which no program can set) tells the rewrite apart.
	p := filepath.Join(dir, "ref.md")
	info, _ := os.Stat(p)
	if err := os.WriteFile(p, []byte("REFERENCE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	want, _ := skills.Hash(fsys.OS{}, dir)
	h, n := run(t, cachePath, dir, false)
	if h != want || n != 1 {
		t.Fatalf("after a same-size rewrite with its mtime put back: hash %s after reading %d files, want %s after reading the one file", h, n, want)
	}
}

// Git's racily-clean rule: an entry is trusted only for a file last
// changed before the cache was written.
func TestEntriesNotOlderThanTheCacheAreNotTrusted(t *testing.T) {
	dir := skillTree(t)
	cachePath := filepath.Join(t.TempDir(), hashcache.FileName)
	run(t, cachePath, dir, true)
	// As if the cache had been written before the files last changed.
	older := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(cachePath, older, older); err != nil {
		t.Fatal(err)
	}
	if _, n := run(t, cachePath, dir, false); n != 3 {
		t.Fatalf("read %d files through a cache older than them, want all 3 read again", n)
	}
}

func TestJustWrittenFilesAreNotRecorded(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("fresh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cachePath := filepath.Join(t.TempDir(), hashcache.FileName)
	c := hashcache.Load(cachePath, nil) // the real clock
	if _, err := c.Hasher(fsys.OS{}).Hash(dir); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if _, n := run(t, cachePath, dir, false); n != 1 {
		t.Fatalf("a file written just before it was hashed was served from the cache (%d reads), though a rewrite in the same clock tick would keep its times", n)
	}
}

func TestCorruptOrForeignCacheIsEmpty(t *testing.T) {
	dir := skillTree(t)
	cachePath := filepath.Join(t.TempDir(), hashcache.FileName)
	run(t, cachePath, dir, true)
	good, _ := os.ReadFile(cachePath)
	for name, data := range map[string][]byte{
		"truncated": good[:len(good)-5],
		"foreign":   append([]byte("chronicle skill-hash cache 9\n"), good[len("chronicle skill-hash cache 1\n"):]...),
		"garbage":   bytes.Repeat([]byte{0xff}, 500),
		"empty":     nil,
	} {
		if err := os.WriteFile(cachePath, data, 0o600); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(time.Hour)
		os.Chtimes(cachePath, old, old)
		want, _ := skills.Hash(fsys.OS{}, dir)
		if h, n := run(t, cachePath, dir, false); h != want || n != 3 {
			t.Errorf("%s cache: hash %s after %d reads, want %s after reading every file", name, h, n, want)
		}
	}
}

func TestEachTreeIsHashedOncePerReader(t *testing.T) {
	dir := skillTree(t)
	r, count := opens()
	memo := (*hashcache.Cache)(nil).Hasher(r)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	memo.HashAll([]string{dir, dir, dir, dir, dir, dir, dir, dir, dir, dir, dir, dir, dir, dir, dir, dir})
	a, _ := memo.Hash(dir)
	b, _ := memo.Hash(dir)
	if a != b || count() != 3 {
		t.Fatalf("hashing one tree 18 times read %d files (want 3, once)", count())
	}
	if c, _ := memo.Hash(link); c != a {
		t.Fatalf("a link to the tree hashes %s, the tree %s", c, a)
	}
}

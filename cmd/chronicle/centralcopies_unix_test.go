//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

// The skill hash cache keys files by inode and change time, which these
// systems give (engine/hashcache's key_unix.go); elsewhere it is not used.

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hashcache"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// countingReader counts the files opened through it.
type countingReader struct {
	fsys.Reader
	opens *atomic.Int32
}

func (r countingReader) Open(name string) (fs.File, error) {
	r.opens.Add(1)
	return r.Reader.Open(name)
}

// After an apply has written central copies, the next plan takes their
// Before from the skill hash cache: it opens none of their files, and the
// tree hash is the one reading every file gives.
func TestApplyRemembersTheCentralCopiesItWrote(t *testing.T) {
	home := t.TempDir()
	store := filepath.Join(home, ".chronicle", "skills")
	written := filepath.Join(store, "review")
	untouched := filepath.Join(store, "notes")
	for _, dir := range []string{written, filepath.Join(written, "scripts"), untouched} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, body := range map[string]string{
		filepath.Join(written, "SKILL.md"):          "---\nname: review\ndescription: reviews\n---\nbody\n",
		filepath.Join(written, "scripts", "run.sh"): "#!/bin/sh\n",
		filepath.Join(untouched, "SKILL.md"):        "---\nname: notes\ndescription: notes\n---\n",
	} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := &plan.Plan{Changes: []plan.Change{
		{Address: "skill.review", Kind: plan.KindSkill, Action: plan.Create, Skill: &plan.SkillSpec{Name: "review", Store: written}},
		{Address: "skill.notes", Kind: plan.KindSkill, Action: plan.Conflict, Skill: &plan.SkillSpec{Name: "notes", Store: untouched}},
	}}
	cachePath := filepath.Join(home, ".chronicle", "cache", hashcache.FileName)
	// The apply ran long enough for its copies to settle (the cache's rule):
	// its clock reads a minute on.
	later := time.Now().Add(time.Minute)
	applied := hashcache.Load(cachePath, func() time.Time { return later })
	rememberCentralCopies(applied, p)
	rememberCentralCopies(nil, p) // a saved plan's apply: no cache, nothing to do
	if err := applied.Save(); err != nil {
		t.Fatal(err)
	}

	var opens atomic.Int32
	reader := countingReader{Reader: fsys.ReadOnly(fsys.OS{}), opens: &opens}
	next := hashcache.Load(cachePath, nil).Hasher(reader)
	got, err := next.Hash(written)
	if err != nil {
		t.Fatal(err)
	}
	want, err := skills.Hash(fsys.OS{}, written)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("the cached tree hash is %s, reading every file gives %s", got, want)
	}
	if n := opens.Load(); n != 0 {
		t.Fatalf("the plan after the apply opened %d files of the copy apply wrote, want none", n)
	}
	if _, err := next.Hash(untouched); err != nil {
		t.Fatal(err)
	}
	if n := opens.Load(); n != 1 {
		t.Fatalf("the copy apply did not write: %d files opened, want its one file read", n)
	}
}

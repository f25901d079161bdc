package snapshot

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// writeSkill makes a small skill tree at dir with body as SKILL.md's text.
func writeSkill(t *testing.T, dir, body string) {
	t.Helper()
	os.RemoveAll(dir)
	if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: pdf\ndescription: d\n---\n"+body), 0o644)
	os.WriteFile(filepath.Join(dir, "scripts", "run.sh"), []byte("#!/bin/sh\n"), 0o755)
}

func hash(t *testing.T, dir string) string {
	t.Helper()
	h, err := skills.Hash(fsys.OS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestTakeDedupsAndRecords(t *testing.T) {
	root, src := t.TempDir(), filepath.Join(t.TempDir(), "pdf")
	writeSkill(t, src, "v1")
	first, made, err := Take(fsys.OS{}, root, "pdf", src, KindImported, Meta{OriginRepo: "https://github.com/anthropics/skills", OriginSHA: "abc"})
	if err != nil || !made || first.ID != "1" {
		t.Fatalf("first Take: %+v made=%v err=%v", first, made, err)
	}
	again, made, err := Take(fsys.OS{}, root, "pdf", src, KindFSChange, Meta{})
	if err != nil || made || again.ID != "1" {
		t.Fatalf("Take of an unchanged tree: %+v made=%v err=%v, want snapshot 1 and no new one", again, made, err)
	}
	writeSkill(t, src, "v2")
	second, made, err := Take(fsys.OS{}, root, "pdf", src, KindApply, Meta{Note: "before replace"})
	if err != nil || !made || second.ID != "2" {
		t.Fatalf("Take of a changed tree: %+v made=%v err=%v", second, made, err)
	}
	list, err := List(fsys.OS{}, root, "pdf")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Kind != KindImported || list[0].OriginSHA != "abc" || list[1].Kind != KindApply || list[1].Note != "before replace" {
		t.Fatalf("index: %+v", list)
	}
	if got := hash(t, filepath.Join(root, "pdf", "2")); got != hash(t, src) || got != list[1].Hash {
		t.Fatalf("snapshot 2 hashes %s, source %s, index %s", got, hash(t, src), list[1].Hash)
	}
	if list, _ := List(fsys.OS{}, root, "other"); len(list) != 0 {
		t.Fatalf("a skill without snapshots lists %+v", list)
	}
}

func TestFSChangeIsRolling(t *testing.T) {
	root, src := t.TempDir(), filepath.Join(t.TempDir(), "pdf")
	writeSkill(t, src, "imported")
	if _, _, err := Take(fsys.OS{}, root, "pdf", src, KindImported, Meta{}); err != nil {
		t.Fatal(err)
	}
	const edits = KeepFSChange + 10
	for i := 0; i < edits; i++ {
		writeSkill(t, src, fmt.Sprintf("edit %d", i))
		if _, made, err := Take(fsys.OS{}, root, "pdf", src, KindFSChange, Meta{}); err != nil || !made {
			t.Fatalf("edit %d: made=%v err=%v", i, made, err)
		}
	}
	list, err := List(fsys.OS{}, root, "pdf")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != KeepFSChange+1 || list[0].ID != "1" || list[0].Kind != KindImported {
		t.Fatalf("%d snapshots, first %+v; want the imported one and %d fs_change", len(list), list[0], KeepFSChange)
	}
	if list[1].ID != "12" || list[len(list)-1].ID != fmt.Sprint(edits+1) {
		t.Fatalf("kept ids %s…%s, want 12…%d", list[1].ID, list[len(list)-1].ID, edits+1)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "pdf"))
	var dirs int
	for _, e := range entries {
		if e.IsDir() {
			dirs++
		}
	}
	if dirs != len(list) {
		t.Fatalf("%d snapshot folders for %d index entries", dirs, len(list))
	}
}

func TestTakeRemovesCrashLeftovers(t *testing.T) {
	root, src := t.TempDir(), filepath.Join(t.TempDir(), "pdf")
	writeSkill(t, src, "v1")
	os.MkdirAll(filepath.Join(root, "pdf", "1", "half"), 0o755)              // copied, never indexed
	os.MkdirAll(filepath.Join(root, "pdf", ".1.staging-123", "half"), 0o755) // a staging copy
	snap, made, err := Take(fsys.OS{}, root, "pdf", src, KindImported, Meta{})
	if err != nil || !made || snap.ID != "1" {
		t.Fatalf("Take beside leftovers: %+v made=%v err=%v", snap, made, err)
	}
	if _, err := os.Stat(filepath.Join(root, "pdf", "1", "half")); err == nil {
		t.Fatal("the orphan copy was kept in place of the new snapshot")
	}
	if _, err := os.Stat(filepath.Join(root, "pdf", ".1.staging-123")); err == nil {
		t.Fatal("the staging leftover was kept")
	}
}

func TestHostileNamesAreRefused(t *testing.T) {
	base := t.TempDir()
	root, store, src := filepath.Join(base, "snapshots"), filepath.Join(base, "skills"), filepath.Join(base, "src")
	writeSkill(t, src, "v1")
	for _, skill := range []string{"", "..", "../x", "a/b", "/etc", "PDF", "pdf/../../x"} {
		if _, _, err := Take(fsys.OS{}, root, skill, src, KindImported, Meta{}); err == nil {
			t.Errorf("Take accepted the skill name %q", skill)
		}
		if _, err := List(fsys.OS{}, root, skill); err == nil {
			t.Errorf("List accepted the skill name %q", skill)
		}
		if err := Restore(fsys.OS{}, root, skill, "1", store); err == nil {
			t.Errorf("Restore accepted the skill name %q", skill)
		}
	}
	if _, _, err := Take(fsys.OS{}, root, "pdf", src, KindImported, Meta{}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"", "0", "01", "-1", "../1", "1/../../x", "x"} {
		if err := Restore(fsys.OS{}, root, "pdf", id, store); err == nil {
			t.Errorf("Restore accepted the id %q", id)
		}
	}
	if _, _, err := Take(fsys.OS{}, root, "pdf", src, Kind("../x"), Meta{}); err == nil {
		t.Error("Take accepted an unknown kind")
	}
	entries, _ := os.ReadDir(base)
	if len(entries) != 2 { // snapshots and src; the store was never created
		t.Fatalf("something was written outside the snapshots: %v", entries)
	}
}

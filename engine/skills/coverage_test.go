package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// Compare lists, sorted by path, each file or link that differs between
// two skill trees: added, removed, other bytes, other link target, and a
// file whose executable bit alone changed (not content). Files of the same
// size and bytes are not listed.
func TestCompareListsWhatDiffers(t *testing.T) {
	root := t.TempDir()
	a := writeSkill(t, root, "a", "---\nname: a\n---\nsame\n")
	b := writeSkill(t, root, "b", "---\nname: a\n---\nsame\n")
	write := func(dir, rel, text string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	link := func(dir, rel, target string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(dir, rel)); err != nil {
			t.Fatal(err)
		}
	}
	write(a, "gone.md", "only in a\n", 0o644)
	write(b, "docs/new.md", "only in b\n", 0o644)
	write(a, "same-size.md", "abc\n", 0o644)
	write(b, "same-size.md", "xyz\n", 0o644)
	write(a, "longer.md", "short\n", 0o644)
	write(b, "longer.md", "much longer\n", 0o644)
	write(a, "run.sh", "#!/bin/sh\n", 0o644)
	write(b, "run.sh", "#!/bin/sh\n", 0o755)
	link(a, "ref", "SKILL.md")
	link(b, "ref", "docs/new.md")
	link(a, "same-link", "SKILL.md")
	link(b, "same-link", "SKILL.md")

	diffs, err := Compare(fsys.OS{}, a, fsys.OS{}, b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diffs {
		got = append(got, fmt.Sprintf("%s %s>%s content=%v exec=%v>%v", d.Path, d.From.Kind, d.To.Kind, d.Content, d.From.Executable, d.To.Executable))
	}
	want := []string{
		"docs/new.md >file content=true exec=false>false",
		"gone.md file> content=true exec=false>false",
		"longer.md file>file content=true exec=false>false",
		"ref link>link content=true exec=false>false",
		"run.sh file>file content=false exec=false>true",
		"same-size.md file>file content=true exec=false>false",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("Compare =\n%q\nwant\n%q", got, want)
	}
	if _, err := Compare(fsys.OS{}, filepath.Join(root, "missing"), fsys.OS{}, b); err == nil {
		t.Fatal("Compare of a missing tree gave no error")
	}
	if _, err := Compare(fsys.OS{}, a, fsys.OS{}, filepath.Join(root, "missing")); err == nil {
		t.Fatal("Compare with a missing tree gave no error")
	}
}

// ScanDirUnhashed classifies as ScanDir does, leaving out only the hash
// of the links into the store (a plan passes over managed skills).
func TestScanDirUnhashedSkipsOnlyTheStoresHashes(t *testing.T) {
	root := t.TempDir()
	store := Store{Dir: filepath.Join(root, "store")}
	writeSkill(t, store.Dir, "central", "---\nname: central\ndescription: c\n---\n")
	tool := filepath.Join(root, "tool")
	writeSkill(t, tool, "mine", "---\nname: mine\ndescription: m\n---\n")
	if err := os.Symlink(filepath.Join(store.Dir, "central"), filepath.Join(tool, "central")); err != nil {
		t.Fatal(err)
	}
	d := provider.SkillDir{Tool: "claude", Scope: "user", Dir: tool}
	hashed, err := ScanDir(NewHasher(fsys.OS{}, nil), d, store)
	if err != nil {
		t.Fatal(err)
	}
	unhashed, err := ScanDirTo(NewHasher(fsys.OS{}, nil), d, store, Depth{ManagedUnhashed: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(hashed) != 2 || len(unhashed) != 2 {
		t.Fatalf("found %+v and %+v", hashed, unhashed)
	}
	for i := range hashed {
		h, u := hashed[i], unhashed[i]
		if h.Name != u.Name || h.Status != u.Status {
			t.Errorf("%s: %s hashed, %s unhashed", h.Name, h.Status, u.Status)
		}
	}
	if c := unhashed[0]; c.Name != "central" || c.Status != StatusManaged || c.Hash != "" || hashed[0].Hash == "" {
		t.Errorf("the link into the store: hashed %q, unhashed %+v", hashed[0].Hash, c)
	}
	if m := unhashed[1]; m.Name != "mine" || m.Status != StatusImportable || m.Hash != hashed[1].Hash || m.Hash == "" {
		t.Errorf("a skill of the tool's own: %+v", m)
	}
}

// HashAll hashes many trees at once; each later Hash finds the same
// result Hash gives alone, errors included.
func TestHashAllManyTrees(t *testing.T) {
	root := t.TempDir()
	var dirs []string
	for i := range 20 {
		dirs = append(dirs, writeSkill(t, root, fmt.Sprintf("s%02d", i), fmt.Sprintf("---\nname: s%02d\n---\n%d\n", i, i)))
	}
	dirs = append(dirs, filepath.Join(root, "missing"))
	h := NewHasher(fsys.OS{}, nil)
	h.HashAll(dirs)
	for _, dir := range dirs {
		want, wantErr := Hash(fsys.OS{}, dir)
		got, err := h.Hash(dir)
		if got != want || (err == nil) != (wantErr == nil) {
			t.Errorf("%s: %s, %v; Hash alone: %s, %v", dir, got, err, want, wantErr)
		}
	}
}

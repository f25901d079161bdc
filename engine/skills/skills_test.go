package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

func TestParseFrontmatter(t *testing.T) {
	tests := []struct {
		src, name, err string
	}{
		{"---\nname: code-review\ndescription: Reviews code.\n---\n# body\n", "code-review", ""},
		{"---\r\nname: x\r\ndescription: y\r\n---\r\n", "x", ""},
		{"# no frontmatter\n", "", "does not start with"},
		{"---\nname: x\ndescription: y\n", "", "no closing"},
		{"---\nname: [x\n---\n", "", "not valid YAML"},
		{"---\nname: x\n---\n", "", "no description"},
		{"---\ndescription: y\n---\n", "", "no name"},
		{"---\nname: x\ndescription: " + strings.Repeat("d", 1025) + "\n---\n", "", "1025 characters"},
	}
	for _, tt := range tests {
		fm, err := ParseFrontmatter([]byte(tt.src))
		if tt.err == "" {
			if err != nil || fm.Name != tt.name {
				t.Errorf("ParseFrontmatter(%q) = %+v, %v", tt.src, fm, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("ParseFrontmatter(%q) error = %v, want %q", tt.src, err, tt.err)
		}
	}
}

func writeSkill(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p, "SKILL.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestScanDirClassifies(t *testing.T) {
	home := t.TempDir()
	store := Store{Dir: filepath.Join(home, ".chronicle", "skills")}
	writeSkill(t, store.Dir, "shared", "---\nname: shared\ndescription: central\n---\n")
	writeSkill(t, store.Dir, "copied", "---\nname: copied\ndescription: same\n---\n")

	dir := filepath.Join(home, ".claude", "skills")
	writeSkill(t, dir, "fresh", "---\nname: fresh\ndescription: new\n---\n")
	writeSkill(t, dir, "shared", "---\nname: shared\ndescription: a local edit\n---\n")
	writeSkill(t, dir, "copied", "---\nname: copied\ndescription: same\n---\n")
	writeSkill(t, dir, "renamed", "---\nname: other\ndescription: x\n---\n")
	writeSkill(t, dir, "nofm", "just text\n")
	os.MkdirAll(filepath.Join(dir, "empty"), 0o755)
	os.Symlink(filepath.Join(store.Dir, "shared"), filepath.Join(dir, "linked"))
	os.Symlink(filepath.Join(home, "nowhere"), filepath.Join(dir, "dangling"))
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(dir, ".DS_Store"), []byte("x"), 0o644)

	found, err := ScanDir(fsys.OS{}, provider.SkillDir{Tool: "claude", Scope: "user", Dir: dir}, store)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"fresh":     {StatusImportable, ""},
		"shared":    {StatusDuplicate, "differs"},
		"copied":    {StatusManaged, "identical"},
		"renamed":   {StatusBroken, `name "other" ≠ folder name "renamed"`},
		"nofm":      {StatusBroken, "bad frontmatter"},
		"empty":     {StatusBroken, "no SKILL.md"},
		"linked":    {StatusManaged, ""},
		"dangling":  {StatusBroken, "dangling link"},
		"notes.txt": {StatusBroken, "not a folder"},
	}
	if len(found) != len(want) {
		t.Fatalf("found %d entries, want %d: %+v", len(found), len(want), found)
	}
	for _, f := range found {
		w := want[f.Name]
		if f.Status != w[0] || !strings.Contains(f.Reason, w[1]) {
			t.Errorf("%s: status %q reason %q, want %q containing %q", f.Name, f.Status, f.Reason, w[0], w[1])
		}
	}
}

func TestHashIgnoresMetadataNotContent(t *testing.T) {
	a := writeSkill(t, t.TempDir(), "s", "---\nname: s\ndescription: d\n---\n")
	b := writeSkill(t, t.TempDir(), "s", "---\nname: s\ndescription: d\n---\n")
	ha, _ := Hash(fsys.OS{}, a)
	hb, _ := Hash(fsys.OS{}, b)
	if ha != hb {
		t.Fatal("identical trees hash differently")
	}
	os.WriteFile(filepath.Join(b, "extra.md"), []byte("x"), 0o644)
	if hc, _ := Hash(fsys.OS{}, b); hc == ha {
		t.Fatal("an added file did not change the hash")
	}
	os.Chmod(filepath.Join(a, "SKILL.md"), 0o755)
	if hd, _ := Hash(fsys.OS{}, a); hd == ha {
		t.Fatal("the executable bit did not change the hash")
	}
}

func FuzzParseFrontmatter(f *testing.F) {
	for _, s := range []string{"---\nname: a\ndescription: b\n---\n", "---\n---\n", "---\nname: &a [*a]\n---\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_, _ = ParseFrontmatter(src)
	})
}

func TestCopyIsAllOrNothing(t *testing.T) {
	src := writeSkill(t, t.TempDir(), "s", "---\nname: s\ndescription: d\n---\n")
	os.MkdirAll(filepath.Join(src, "scripts"), 0o755)
	os.WriteFile(filepath.Join(src, "scripts", "run.sh"), []byte("#!/bin/sh\n"), 0o755)
	os.Symlink("scripts/run.sh", filepath.Join(src, "run"))
	dst := filepath.Join(t.TempDir(), "skills", "s")
	if err := Copy(fsys.OS{}, src, dst); err != nil {
		t.Fatal(err)
	}
	hs, _ := Hash(fsys.OS{}, src)
	hd, _ := Hash(fsys.OS{}, dst)
	if hs != hd {
		t.Fatal("the copy differs from the source")
	}
	if err := Copy(fsys.OS{}, src, dst); err == nil {
		t.Fatal("Copy overwrote an existing folder")
	}

	bad := writeSkill(t, t.TempDir(), "bad", "---\nname: bad\ndescription: d\n---\n")
	os.Symlink("/etc/passwd", filepath.Join(bad, "passwd"))
	dst2 := filepath.Join(t.TempDir(), "bad")
	if err := Copy(fsys.OS{}, bad, dst2); err == nil {
		t.Fatal("a link outside the skill was copied")
	}
	if _, err := os.Lstat(dst2); !os.IsNotExist(err) {
		t.Fatal("a failed copy left something behind")
	}
	entries, _ := os.ReadDir(filepath.Dir(dst2))
	if len(entries) != 0 {
		t.Fatalf("staging left behind: %v", entries)
	}
}

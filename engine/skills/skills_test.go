package skills

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
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
	outside := writeSkill(t, dir, "outside", "---\nname: outside\ndescription: links out\n---\n")
	os.Symlink(filepath.Join(home, "secrets.txt"), filepath.Join(outside, "notes"))
	inside := writeSkill(t, dir, "inside", "---\nname: inside\ndescription: links in\n---\n")
	os.Symlink("SKILL.md", filepath.Join(inside, "README.md"))

	found, err := ScanDir(NewHasher(fsys.OS{}, nil), provider.SkillDir{Tool: "claude", Scope: "user", Dir: dir}, store)
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
		"outside":   {StatusBroken, "not importable: notes links outside the skill"},
		"inside":    {StatusImportable, ""},
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

	// A glance reads only the folders it is told to, and links and files
	// as before; Classify reads one it left unread as ScanDir would.
	h := NewHasher(fsys.OS{}, nil)
	glance, err := ScanDirTo(h, provider.SkillDir{Tool: "claude", Scope: "user", Dir: dir}, store, Depth{Read: func(name string) bool { return name == "shared" }})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range glance {
		w := want[f.Name]
		switch f.Name {
		case "shared", "linked", "dangling", "notes.txt":
		default:
			if f.Status != StatusUnread || f.Meta.Name != "" || f.Hash != "" {
				t.Errorf("glance: %s is %q (read: %q %q), want %q and not read", f.Name, f.Status, f.Meta.Name, f.Hash, StatusUnread)
			}
			Classify(h, &f, store)
		}
		if f.Status != w[0] || !strings.Contains(f.Reason, w[1]) {
			t.Errorf("glance, then Classify: %s: status %q reason %q, want %q containing %q", f.Name, f.Status, f.Reason, w[0], w[1])
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

// FuzzFrontmatter checks parse and render of SKILL.md frontmatter on any
// bytes: Rename to a valid name gives a file that parses with that name and
// the same description, keeps the body byte for byte, renames to itself
// unchanged, and renames back to the original bytes when the name was
// written plainly; a plainly written name is always renamed.
func FuzzFrontmatter(f *testing.F) {
	for _, s := range []string{
		"---\nname: a\ndescription: b\n---\n", "---\n---\n", "---\nname: &a [*a]\n---\n", "",
		"\xef\xbb\xbf---\r\nname: review\r\ndescription: \"Reviews: code\"\r\n# note\r\n---\r\nBody\r\n",
		"---\nname: >\n  folded\ndescription: d\n---\n",
		"---\ndescription: |\n  name: inside a block\nname: real\nmetadata:\n  name: nested\n---\n---\nname: body\n",
		"---\n\"name\": quoted-key\ndescription: d\n---\n",
	} {
		f.Add([]byte(s), "renamed-2")
	}
	f.Fuzz(func(t *testing.T, src []byte, to string) {
		to = skillName(to)
		fm, err := ParseFrontmatter(src)
		if err != nil {
			if _, rerr := Rename(src, to); rerr == nil {
				t.Fatalf("Rename accepted a SKILL.md that does not parse (%v): %q", err, src)
			}
			return
		}
		if again, err := ParseFrontmatter(src); err != nil || again != fm {
			t.Fatalf("parsing twice gave %+v, then %+v (%v)", fm, again, err)
		}
		start, end, _ := frontmatterSpan(src)
		plain := plainName.FindAllSubmatch(src[start:end], -1)
		isPlain := len(plain) == 1 && string(plain[0][1]) == fm.Name && len(nameLine.FindAll(src[start:end], -1)) == 1
		out, err := Rename(src, to)
		if err != nil {
			if isPlain {
				t.Fatalf("Rename(%q) of a plainly written name: %v\n%q", to, err, src)
			}
			return
		}
		got, err := ParseFrontmatter(out)
		if err != nil || got.Name != to || got.Description != fm.Description {
			t.Fatalf("renamed to %q: %+v, %v\n%q", to, got, err, out)
		}
		_, outEnd, _ := frontmatterSpan(out)
		if !bytes.Equal(out[outEnd:], src[end:]) || !bytes.Equal(out[:start], src[:start]) {
			t.Fatalf("Rename changed more than the frontmatter:\n%q\n%q", src, out)
		}
		if again, err := Rename(out, to); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("renaming to the same name changed the file (%v):\n%q\n%q", err, out, again)
		}
		if isPlain && bytes.Contains(src, []byte("name: "+fm.Name+"\n")) {
			if back, err := Rename(out, fm.Name); err != nil || !bytes.Equal(back, src) {
				t.Fatalf("renaming back to %q did not restore the file (%v):\n%q\n%q", fm.Name, err, src, back)
			}
		}
	})
}

// plainName is a name line written the way chronicle writes one.
var plainName = regexp.MustCompile(`(?m)^name: ([a-z0-9]+(?:-[a-z0-9]+)*)\r?$`)

// skillName turns fuzz input into a valid skill name.
func skillName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 || b.Len() > 64 {
		return "renamed"
	}
	return b.String()
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

// TestScanDirSingleFiles: in a folder that takes single-file skills
// (Antigravity's), a NAME.md with a valid header is a skill named NAME,
// listed as single-file; one with a bad header is broken; folders are
// classified as anywhere. Elsewhere a NAME.md is not a folder.
func TestScanDirSingleFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".agents", "skills")
	writeSkill(t, dir, "folder", "---\nname: folder\ndescription: a folder skill\n---\n")
	os.WriteFile(filepath.Join(dir, "format-tests.md"), []byte("---\nname: format-tests\ndescription: Standardize and re-format Python unittest assertions\n---\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "nofm.md"), []byte("just text\n"), 0o644)
	store := Store{Dir: filepath.Join(t.TempDir(), "store")}
	h := NewHasher(fsys.OS{}, nil)

	found, err := ScanDir(h, provider.SkillDir{Tool: "antigravity", Scope: "project", Dir: dir, Files: true}, store)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Found{}
	for _, f := range found {
		got[f.Name] = f
	}
	if f := got["format-tests"]; f.Status != StatusSingleFile || f.Path != filepath.Join(dir, "format-tests.md") ||
		f.Meta.Description != "Standardize and re-format Python unittest assertions" || f.Reason != singleFileReason {
		t.Errorf("format-tests.md: %+v", f)
	}
	if f := got["nofm"]; f.Status != StatusBroken || !strings.Contains(f.Reason, "bad frontmatter") {
		t.Errorf("nofm.md: %+v", f)
	}
	if f := got["folder"]; f.Status != StatusImportable {
		t.Errorf("folder: %+v", f)
	}

	found, err = ScanDir(h, provider.SkillDir{Tool: "codex", Scope: "project", Dir: dir}, store)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		if f.Name == "format-tests.md" && (f.Status != StatusBroken || f.Reason != "not a folder") {
			t.Errorf("without Files: %+v", f)
		}
	}
}

func TestResolveFollowsChainsOfLinks(t *testing.T) {
	dir := t.TempDir()
	skill := writeSkill(t, dir, "s", "---\nname: s\ndescription: d\n---\n")
	os.Symlink("s", filepath.Join(dir, "b"))
	os.Symlink(filepath.Join(dir, "b"), filepath.Join(dir, "a"))
	if got, err := Resolve(fsys.OS{}, filepath.Join(dir, "a")); err != nil || got != skill {
		t.Fatalf("Resolve(a) = %q, %v; want %q", got, err, skill)
	}
	os.Symlink("loop2", filepath.Join(dir, "loop1"))
	os.Symlink("loop1", filepath.Join(dir, "loop2"))
	if _, err := Resolve(fsys.OS{}, filepath.Join(dir, "loop1")); err == nil || !strings.Contains(err.Error(), "too many levels") {
		t.Fatalf("a loop of links: %v", err)
	}
}

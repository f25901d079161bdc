package observe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/markers"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// Place sees what is at a path without following a link there: nothing, a
// link (its target), a folder (its tree hash, as skills.Hash), a file (its
// content hash), or something it cannot look at (why). PlaceWith, through
// a Hasher, sees the same.
func TestPlace(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	skill := filepath.Join(dir, "review")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: review\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p("rule.md"), []byte("Use gofmt.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("review", p("link")); err != nil {
		t.Fatal(err)
	}
	treeHash, err := skills.Hash(fsys.OS{}, skill)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want Observation
		says string
	}{
		{p("missing"), Observation{Kind: Absent}, "nothing"},
		{p("link"), Observation{Kind: Symlink, Target: "review"}, "a link to review"},
		{skill, Observation{Kind: Dir, Hash: treeHash}, "a real directory (" + treeHash[:19] + "…)"},
		{p("rule.md"), Observation{Kind: File, Hash: toolfile.Hash([]byte("Use gofmt.\n"))}, "a file (sha256:"},
		{filepath.Join(p("rule.md"), "inside"), Observation{Kind: Unreadable}, "something unreadable ("},
	} {
		for name, got := range map[string]Observation{
			"Place": Place(fsys.OS{}, tc.path), "PlaceWith": PlaceWith(skills.NewHasher(fsys.OS{}, nil), tc.path),
		} {
			if tc.want.Kind == Unreadable {
				if got.Kind != Unreadable || !strings.Contains(got.Error, "not a directory") {
					t.Errorf("%s(%s) = %+v", name, tc.path, got)
				}
			} else if !got.Equal(tc.want) {
				t.Errorf("%s(%s) = %+v, want %+v", name, tc.path, got, tc.want)
			}
			if !strings.HasPrefix(got.String(), tc.says) {
				t.Errorf("%s(%s) reads %q, want %q…", name, tc.path, got.String(), tc.says)
			}
		}
	}
}

// An entry in a tool file is seen by its canonical hash, with the facts
// of the file (mode, hard links, owner); an entry not there is absent,
// the file's facts still recorded.
func TestEntryInAndFacts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {}}`), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(path, filepath.Join(dir, "copy.json")); err != nil {
		t.Fatal(err)
	}
	f := toolfile.NewView(fsys.OS{}).File(path)
	entries := []provider.Entry{{Name: "github", Canonical: []byte(`{"command":"gh"}`)}, {Name: "db", Canonical: []byte(`{"url":"x"}`)}}
	got := EntryIn(f, entries, "github")
	if got.Kind != Entry || got.Hash != toolfile.Hash([]byte(`{"command":"gh"}`)) || got.Hash != EntryHash(entries[0]) {
		t.Fatalf("EntryIn = %+v", got)
	}
	if got.File == nil || !got.File.Exists || got.File.Mode != 0o640 || got.File.Links != 2 || got.File.UID != os.Getuid() {
		t.Fatalf("the file's facts: %+v", got.File)
	}
	if absent := EntryIn(f, entries, "other"); absent.Kind != Absent || absent.File == nil || !absent.File.Exists {
		t.Fatalf("an entry not there: %+v", absent)
	}
	missing := toolfile.NewView(fsys.OS{}).File(filepath.Join(dir, "missing.json"))
	if facts := Facts(missing); *facts != (FileFacts{}) {
		t.Fatalf("a missing file's facts: %+v", facts)
	}
	if facts := Facts(nil); *facts != (FileFacts{}) {
		t.Fatalf("no file's facts: %+v", facts)
	}
}

// A block is seen by the hash of its body; a block not there, or a file
// without blocks, is absent.
func TestBlockIn(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "AGENTS.md")
	src := "Mine.\n\n<!-- chronicle:begin rule.go-style -->\nUse gofmt.\n<!-- chronicle:end rule.go-style -->\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f := toolfile.NewView(fsys.OS{}).File(path)
	parsed, err := markers.Parse(path, f.Data)
	if err != nil {
		t.Fatal(err)
	}
	got := BlockIn(f, parsed, "rule.go-style")
	if got.Kind != Block || got.Hash != BodyHash("Use gofmt.\n") || !strings.HasPrefix(got.String(), "a block (sha256:") {
		t.Fatalf("BlockIn = %+v (%s)", got, got)
	}
	if o := BlockIn(f, parsed, "rule.tests"); o.Kind != Absent || !o.File.Exists {
		t.Fatalf("a block not there: %+v", o)
	}
	if o := BlockIn(f, nil, "rule.go-style"); o.Kind != Absent {
		t.Fatalf("a file without blocks: %+v", o)
	}
}

// Two observations are equal when they see the same thing, the file's
// facts included; the difference reads as what changed.
func TestEqualAndDifference(t *testing.T) {
	facts := FileFacts{Exists: true, Mode: 0o644, Links: 1, UID: 1000, GID: 1000}
	entry := Observation{Kind: Entry, Hash: "sha256:0123456789abcdef0123", File: &facts}
	with := func(change func(*FileFacts)) Observation {
		f := facts
		change(&f)
		o := entry
		o.File = &f
		return o
	}
	for _, tc := range []struct {
		name  string
		now   Observation
		equal bool
		diff  string
	}{
		{"the same", with(func(*FileFacts) {}), true, "the file "},
		{"read-only since", with(func(f *FileFacts) { f.Mode = 0o444 }), false, "the file mode 0644 → 0444"},
		{"hard-linked since", with(func(f *FileFacts) { f.Links = 2 }), false, "the file hard links 1 → 2"},
		{"another owner", with(func(f *FileFacts) { f.UID, f.GID = 0, 0 }), false, "the file owner 1000:1000 → 0:0"},
		{"two changes", with(func(f *FileFacts) { f.Mode, f.Links = 0o600, 3 }), false, "the file mode 0644 → 0600, hard links 1 → 3"},
		{"removed", with(func(f *FileFacts) { f.Exists = false }), false, "the file was removed"},
		{"without facts", Observation{Kind: Entry, Hash: entry.Hash}, false, "was an entry (sha256:0123456789ab…), now an entry (sha256:0123456789ab…)"},
		{"another entry", Observation{Kind: Entry, Hash: "sha256:ff", File: &facts}, false, "was an entry (sha256:0123456789ab…), now an entry (sha256:ff)"},
		{"a link now", Observation{Kind: Symlink, Target: "/x"}, false, "was an entry (sha256:0123456789ab…), now a link to /x"},
		{"unknown kind", Observation{Kind: "socket"}, false, "was an entry (sha256:0123456789ab…), now socket"},
	} {
		if got := entry.Equal(tc.now); got != tc.equal {
			t.Errorf("%s: Equal = %v", tc.name, got)
		}
		if got := entry.Difference(tc.now); got != tc.diff {
			t.Errorf("%s: Difference = %q, want %q", tc.name, got, tc.diff)
		}
	}
	created := Observation{Kind: Absent, File: &FileFacts{}}
	if got := created.Difference(Observation{Kind: Absent, File: &facts}); got != "the file was created" {
		t.Errorf("a file created since: %q", got)
	}
}

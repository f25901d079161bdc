package state

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A version 2 state reads as version 3 with no blocks and files, and is
// written back as version 3 with the same records.
func TestUpgradeFrom2(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	v2 := `{"version": 2, "serial": 7, "lineage": "l-2", "services": {}, "policies": {}, "skills": {"pdf": {"hash": "sha256:ab"}},
"links": [{"address": "link.all[\"claude\"].skill.pdf", "tool": "claude", "path": "/h/.claude/skills/pdf", "target": "/h/.chronicle/skills/pdf", "mode": "symlink"}],
"entries": [], "journal": [], "sources": {}}`
	if err := os.WriteFile(path, []byte(v2), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Serial != 7 || st.Lineage != "l-2" || len(st.Links) != 1 || len(st.Blocks) != 0 || len(st.Files) != 0 {
		t.Fatalf("upgraded state = %+v", st)
	}
	st.SetBlock(Block{File: "/p/AGENTS.md", ID: "rule.go-style", Hash: "sha256:cd", WantedBy: []string{`link.b["opencode"].rule.go-style`, `link.a["codex"].rule.go-style`}})
	st.SetFile(File{Address: `link.a["claude"].command.review`, Tool: "claude", Kind: "command", Path: "/h/.claude/commands/review.md", Hash: "sha256:ef", Rendered: "sha256:ef"})
	if err := st.Save(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	for _, want := range []string{`"version": 3`, `"blocks": [`, `"wanted_by": [`, `"files": [`, `"rendered": "sha256:ef"`} {
		if !strings.Contains(string(b), want) {
			t.Fatalf("saved state lacks %s:\n%s", want, b)
		}
	}
	again, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	blk := again.BlockAt("/p/AGENTS.md", "rule.go-style")
	if blk == nil || !slices.Equal(blk.WantedBy, []string{`link.a["codex"].rule.go-style`, `link.b["opencode"].rule.go-style`}) {
		t.Fatalf("block = %+v", blk)
	}
	if f := again.FileAt("/h/.claude/commands/review.md"); f == nil || f.Kind != "command" {
		t.Fatalf("file = %+v", f)
	}
	addrs := again.Addresses()
	for _, want := range []string{`link.a["claude"].command.review`, `link.a["codex"].rule.go-style`, `link.b["opencode"].rule.go-style`} {
		if !slices.Contains(addrs, want) {
			t.Fatalf("Addresses lacks %s: %v", want, addrs)
		}
	}
}

// A version 2 file with blocks is not one chronicle wrote.
func TestVersion2WithBlocksRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	os.WriteFile(path, []byte(`{"version": 2, "serial": 1, "lineage": "x", "blocks": [{"file": "/f", "id": "rule.a", "hash": "h", "wanted_by": ["a"]}]}`), 0o600)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Fatalf("err = %v", err)
	}
}

// Forgetting one address of a shared block keeps the block for the others;
// forgetting the last forgets the block.
func TestForgetSharedBlock(t *testing.T) {
	st := New()
	st.SetBlock(Block{File: "/p/AGENTS.md", ID: "rule.x", Hash: "h", WantedBy: []string{"a", "b"}})
	if err := st.Forget("a"); err != nil {
		t.Fatal(err)
	}
	if b := st.BlockAt("/p/AGENTS.md", "rule.x"); b == nil || !slices.Equal(b.WantedBy, []string{"b"}) {
		t.Fatalf("after forgetting a: %+v", b)
	}
	if err := st.Forget("b"); err != nil {
		t.Fatal(err)
	}
	if st.BlockAt("/p/AGENTS.md", "rule.x") != nil {
		t.Fatal("a block no address wants is still recorded")
	}
}

// A file's FolderCreated survives saving and loading; a format 3 state
// written before it existed loads with it false.
func TestFolderCreatedRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	st := New()
	st.SetFile(File{Address: `link.p["devin"].agent.reviewer`, Tool: "devin", Kind: "agent", Path: "/p/.devin/agents/reviewer/AGENT.md", Hash: "sha256:ab", Rendered: "sha256:ab", FolderCreated: true})
	st.SetFile(File{Address: `link.p["claude"].agent.reviewer`, Tool: "claude", Kind: "agent", Path: "/p/.claude/agents/reviewer.md", Hash: "sha256:cd", Rendered: "sha256:cd"})
	if err := st.Save(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if strings.Count(string(b), `"folder_created": true`) != 1 {
		t.Fatalf("saved state:\n%s", b)
	}
	again, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if f := again.FileAt("/p/.devin/agents/reviewer/AGENT.md"); f == nil || !f.FolderCreated {
		t.Fatalf("devin file = %+v", f)
	}
	if f := again.FileAt("/p/.claude/agents/reviewer.md"); f == nil || f.FolderCreated {
		t.Fatalf("claude file = %+v", f)
	}
}

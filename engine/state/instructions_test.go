package state

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A version 2 state reads with no blocks and files, and is written back
// as version 4: one list of records of one shape.
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
	for _, want := range []string{`"version": 4`, `"records": [`, `"kind": "block"`, `"wanted_by": [`, `"kind": "file"`, `"kind": "link"`, `"rendered": "sha256:ef"`} {
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

// A file's Created survives saving and loading; a format 3 state
// written before it existed loads with it false.
func TestCreatedRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	st := New()
	st.SetFile(File{Address: `link.p["devin"].agent.reviewer`, Tool: "devin", Kind: "agent", Path: "/p/.devin/agents/reviewer/AGENT.md", Hash: "sha256:ab", Rendered: "sha256:ab", Folder: "/p/.devin/agents/reviewer"})
	st.SetFile(File{Address: `link.p["claude"].agent.reviewer`, Tool: "claude", Kind: "agent", Path: "/p/.claude/agents/reviewer.md", Hash: "sha256:cd", Rendered: "sha256:cd"})
	if err := st.Save(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if strings.Count(string(b), `"created": true`) != 1 {
		t.Fatalf("saved state:\n%s", b)
	}
	again, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if f := again.FileAt("/p/.devin/agents/reviewer/AGENT.md"); f == nil || f.Folder != "/p/.devin/agents/reviewer" {
		t.Fatalf("devin file = %+v", f)
	}
	if f := again.FileAt("/p/.claude/agents/reviewer.md"); f == nil || f.Folder != "" {
		t.Fatalf("claude file = %+v", f)
	}
}

// A format 3 state upgrades to format 4's records: entries keep their
// whole hash, marked as such; the created files become the flag of the
// entries they hold; a block's file_created and a file's folder_created
// become created.
func TestUpgradeFrom3(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	v3 := `{"version": 3, "serial": 3, "lineage": "l-3", "services": {}, "policies": {}, "skills": {},
"links": [],
"entries": [
 {"address": "link.a[\"cursor\"].service.docs", "tool": "cursor", "file": "/h/.cursor/mcp.json", "key_path": ["mcpServers"], "name": "docs", "hash": "sha256:whole", "rendered": "sha256:r"},
 {"address": "link.a[\"claude\"].service.docs", "tool": "claude", "file": "/h/.claude.json", "key_path": ["mcpServers"], "name": "docs", "hash": "sha256:whole2", "rendered": "sha256:r2"}],
"blocks": [{"file": "/p/AGENTS.md", "id": "rule.go", "hash": "sha256:b", "wanted_by": ["link.a[\"codex\"].rule.go"], "file_created": true}],
"files": [{"address": "link.a[\"devin\"].agent.x", "tool": "devin", "kind": "agent", "path": "/p/.devin/agents/x/AGENT.md", "hash": "sha256:f", "folder_created": true}],
"journal": [], "sources": {}, "created_files": ["/h/.cursor/mcp.json"]}`
	if err := os.WriteFile(path, []byte(v3), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	cursor, claude := st.EntryAt("/h/.cursor/mcp.json", []string{"mcpServers"}, "docs"), st.EntryAt("/h/.claude.json", []string{"mcpServers"}, "docs")
	if cursor == nil || !cursor.WholeHash || cursor.Hash != "sha256:whole" || !cursor.Created || claude == nil || claude.Created {
		t.Fatalf("entries: cursor %+v, claude %+v", cursor, claude)
	}
	if !st.Created("/h/.cursor/mcp.json") || st.Created("/h/.claude.json") {
		t.Fatal("created files")
	}
	if b := st.BlockAt("/p/AGENTS.md", "rule.go"); b == nil || !b.Created {
		t.Fatalf("block %+v", b)
	}
	if f := st.FileAt("/p/.devin/agents/x/AGENT.md"); f == nil || f.Folder != "/p/.devin/agents/x" {
		t.Fatalf("file %+v", f)
	}
	if err := st.Save(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	for _, gone := range []string{`"entries"`, `"blocks"`, `"files"`, `"created_files"`, `"file_created"`, `"folder_created"`} {
		if strings.Contains(string(b), gone) {
			t.Errorf("saved state still has %s:\n%s", gone, b)
		}
	}
	if strings.Count(string(b), `"whole_hash": true`) != 2 || strings.Count(string(b), `"created": true`) != 3 {
		t.Errorf("saved state:\n%s", b)
	}
	again, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if e := again.EntryAt("/h/.cursor/mcp.json", []string{"mcpServers"}, "docs"); e == nil || !e.WholeHash || !e.Created {
		t.Fatalf("entry after a round trip: %+v", e)
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
)

// TestDiffsHideValuesUnderSecretKeys: a value under a secret-looking key
// that looks like nothing in particular (DB_PASSWORD: correct-horse-battery)
// is hidden in goose's YAML, Cursor's JSON and Codex's TOML entries alike,
// in everything a timer keeps or a person reads: sync, plan, a saved plan
// file, show, show --json and apply (issue 27, item 6).
func TestDiffsHideValuesUnderSecretKeys(t *testing.T) {
	const password = "correct-horse-battery"
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "dotfiles")
	repo.Write("chronicle.hcl", `
service "db" {
  command = "db-mcp"
  env     = { DB_PASSWORD = secret("env:DB_PASSWORD") }
}
link "all" {
  tools    = ["goose", "cursor", "codex"]
  services = ["db"]
}
`)
	repo.Commit("first")
	repo.Push()
	home := gitHome(t)
	for rel, text := range map[string]string{
		".config/goose/config.yaml": "extensions:\n  db:\n    type: stdio\n    name: db\n    enabled: true\n    cmd: db-mcp\n    args: []\n    envs:\n      DB_PASSWORD: " + password + "\n    timeout: 300\n",
		".cursor/mcp.json":          `{"mcpServers": {"db": {"command": "db-mcp", "env": {"DB_PASSWORD": "` + password + `"}}}}`,
		".codex/config.toml":        "[mcp_servers.db]\ncommand = \"db-mcp\"\nenv = { DB_PASSWORD = \"" + password + "\" }\n",
	} {
		p := filepath.Join(home, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	source := filepath.Join(home, ".chronicle", "source")
	saved := filepath.Join(t.TempDir(), "db.plan")
	// Each entry is the user's: a conflict, whose diff shows what is there.
	outputs := map[string]string{"sync": mustRun(t, 1, "sync", "--repo", repo.URL())}
	outputs["plan"] = mustRun(t, 0, "--chdir", source, "plan")
	// plan --json lists the changes without their diffs.
	if out := mustRun(t, 0, "--chdir", source, "plan", "--json"); strings.Contains(out, password) {
		t.Errorf("plan --json shows the password:\n%s", out)
	}
	mustRun(t, 0, "--chdir", source, "plan", "--out", saved)
	b, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	outputs["saved plan"] = string(b)
	outputs["show"] = mustRun(t, 0, "show", saved)
	outputs["show --json"] = mustRun(t, 0, "show", "--json", saved)
	outputs["apply"] = mustRun(t, 1, "--chdir", source, "apply", "--auto-approve")
	for what, out := range outputs {
		for _, tool := range []string{"goose", "cursor", "codex"} {
			if !strings.Contains(out, `["`+tool+`"].service.db`) && !strings.Contains(out, `[\"`+tool+`\"].service.db`) {
				t.Errorf("%s has no change of %s's entry:\n%s", what, tool, out)
			}
		}
		if strings.Count(out, "DB_PASSWORD") < 3 || strings.Contains(out, password) {
			t.Errorf("%s shows the password, or no diff of the entries:\n%s", what, out)
		}
	}
}

// TestSyncNotesUnsetVariables: sync, as a timer runs it, says which
// variable the entries it wrote read and nobody set — once set, nothing
// (issue 27, item 7).
func TestSyncNotesUnsetVariables(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "dotfiles")
	repo.Write("chronicle.hcl", `
service "docs" {
  url     = "https://docs.example.com/mcp"
  headers = { Authorization = "Bearer ${secret("env:SYNC_DOCS_TOKEN")}" }
}
link "direct" {
  tools    = ["cursor"]
  services = ["docs"]
}
`)
	repo.Commit("first")
	repo.Push()
	gitHome(t)
	t.Setenv("SYNC_DOCS_TOKEN", "")
	want := "Note: SYNC_DOCS_TOKEN is not set (neither in the environment nor in ~/.chronicle/env); docs in cursor reads it"
	if out := mustRun(t, 0, "sync", "--repo", repo.URL()); !strings.Contains(out, want) {
		t.Fatalf("sync does not say the variable is not set:\n%s", out)
	}
	if out := mustRun(t, 0, "sync"); !strings.Contains(out, want) || !strings.Contains(out, "No changes.") {
		t.Fatalf("a second sync, with nothing to do:\n%s", out)
	}
	t.Setenv("SYNC_DOCS_TOKEN", "sync-docs-secret")
	if out := mustRun(t, 0, "sync"); strings.Contains(out, "SYNC_DOCS_TOKEN") || strings.Contains(out, "sync-docs-secret") {
		t.Fatalf("sync names a variable that is set:\n%s", out)
	}
}

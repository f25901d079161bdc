package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
)

const unattendedConfig = `
service "docs" {
  url = "https://docs.example.com/mcp"
}
service "github" {
  command = "npx"
  args    = ["-y", "@modelcontextprotocol/server-github"]
  env = {
    GITHUB_PERSONAL_ACCESS_TOKEN = secret("env:GITHUB_TOKEN")
  }
}
link "everywhere" {
  tools    = ["*"]
  services = ["*"]
}
`

// syncs runs chronicle sync n times in a row on the machine entered, as a
// timer would, and returns the last output: each must exit 0.
func syncs(t *testing.T, m machineHome, n int, args ...string) string {
	t.Helper()
	out := ""
	for i := range n {
		out = mustRun(t, 0, append([]string{"sync"}, args...)...)
		if i > 0 && !strings.Contains(out, "No changes.") {
			t.Errorf("sync %d on %s still has changes:\n%s", i+1, m.name, out)
		}
	}
	return out
}

// TestUnattendedSyncConverges is issue 27's end-to-end test of machines
// that follow one repository with nobody watching (items 1–3): on each,
// sync runs again and again as a timer would, and must converge, exit 0 and
// lose nothing of the user's, whatever makes the machine different.
//
//   - The work laptop has Cline, which annotates chronicle's entry with a
//     key of its own ("Always allow"): the tool's, never drift.
//   - The home desktop has Antigravity CLI, which has no syntax for a
//     secret reference: tools = ["*"] leaves github out of it, with a note.
//   - A hand edit on the work laptop, kept there with machine --ignore,
//     while a change pushed later still reaches both machines.
func TestUnattendedSyncConverges(t *testing.T) {
	srv := gittest.NewServer(t)
	machinesPath(t)
	t.Setenv("GITHUB_TOKEN", "ghp_not_a_real_token_0123456789abcdef")

	const cline = ".cline/data/settings/cline_mcp_settings.json"
	work := newMachine(t, "work-laptop", "machine {\n  name = \"work-laptop\"\n}\n", map[string]string{
		".claude.json": `{"numStartups": 4, "mcpServers": {}}` + "\n",
		cline:          `{"mcpServers": {"mine": {"command": "my-server", "disabled": false}}}` + "\n",
	})
	home := newMachine(t, "home-desktop", "machine {\n  name = \"home-desktop\"\n}\n", map[string]string{
		".claude.json":                   `{"numStartups": 9, "mcpServers": {}}` + "\n",
		".gemini/config/mcp_config.json": `{"mcpServers": {}}` + "\n",
	})
	dotfiles := srv.Repo(t, "dotfiles")
	dotfiles.Write("chronicle.hcl", unattendedConfig)
	dotfiles.Commit("chronicle configuration")
	dotfiles.Push()

	// The work laptop: Claude Code and Cline.
	work.enter(t)
	out := mustRun(t, 0, "sync", "--repo", dotfiles.URL())
	wantIn(t, "the work laptop's first sync", out, "Apply complete!")
	if got := work.servers(t, cline, "mcpServers"); !slices.Equal(got, []string{"docs", "github", "mine"}) {
		t.Fatalf("Cline has %v", got)
	}
	// Cline annotates chronicle's entry when the user clicks "Always allow".
	annotate(t, filepath.Join(work.home, cline), `"url":"https://docs.example.com/mcp"`, `"url":"https://docs.example.com/mcp","autoApprove":["search"]`)
	syncs(t, work, 3)
	work.status(t, "applied", 0)
	if e := work.entry(t, cline, "mcpServers", "docs"); !strings.Contains(e, "autoApprove") {
		t.Errorf("Cline's own key is gone after the syncs: %s", e)
	}

	// The home desktop: Claude Code and Antigravity CLI, which cannot hold
	// github (a secret): left out with a note, every sync exits 0.
	home.enter(t)
	out = mustRun(t, 0, "sync", "--repo", dotfiles.URL())
	t.Logf("the home desktop's first sync:\n%s", out)
	wantIn(t, "the home desktop's first sync", out, "Note: antigravity leaves out github (no syntax for secret references)", "Apply complete!")
	out = syncs(t, home, 3)
	home.status(t, "applied", 0)
	wantIn(t, "the home desktop's later syncs", out, "Note: antigravity leaves out github")
	if got := home.servers(t, ".gemini/config/mcp_config.json", "mcpServers"); !slices.Equal(got, []string{"docs"}) {
		t.Errorf("Antigravity CLI has %v, want docs only", got)
	}
	if got := home.servers(t, ".claude.json", "mcpServers"); !slices.Equal(got, []string{"docs", "github"}) {
		t.Errorf("Claude Code on the home desktop has %v", got)
	}
	if strings.Contains(out, "ghp_not_a_real_token") {
		t.Errorf("the token reached the output:\n%s", out)
	}

	// A hand edit on the work laptop: the sync stops at the drift (exit 1,
	// nothing applied) and names the command that keeps it on this machine.
	work.enter(t)
	annotate(t, filepath.Join(work.home, cline), `"https://docs.example.com/mcp"`, `"https://docs.internal.example/mcp"`)
	out = mustRun(t, 1, "sync")
	work.status(t, "conflicts", 1)
	wantIn(t, "the sync after a hand edit", out, "drift: cline's entry \"docs\" was edited since chronicle wrote it",
		`chronicle machine --ignore 'link.everywhere["cline"].service.docs'`)
	mustRun(t, 0, "machine", "--ignore", `link.everywhere["cline"].service.docs`)
	out = syncs(t, work, 2)
	work.status(t, "applied", 0)
	wantIn(t, "the syncs after machine --ignore", out, `= link.everywhere["cline"].service.docs ignored on this machine`)

	// A change pushed later reaches both machines; the ignored entry stays
	// as the user left it, and only on the work laptop.
	dotfiles.Write("chronicle.hcl", strings.Replace(unattendedConfig, "https://docs.example.com/mcp", "https://docs.example.com/v2/mcp", 1))
	dotfiles.Commit("docs moved")
	dotfiles.Push()
	out = mustRun(t, 0, "sync")
	t.Logf("the work laptop's sync after the push:\n%s", out)
	syncs(t, work, 2)
	if e := work.entry(t, ".claude.json", "mcpServers", "docs"); !strings.Contains(e, "/v2/mcp") {
		t.Errorf("Claude Code on the work laptop did not follow the push: %s", e)
	}
	if e := work.entry(t, cline, "mcpServers", "docs"); !strings.Contains(e, "docs.internal.example") || !strings.Contains(e, "autoApprove") {
		t.Errorf("the ignored entry in Cline changed: %s", e)
	}
	if e := work.entry(t, cline, "mcpServers", "mine"); !strings.Contains(e, "my-server") {
		t.Errorf("the user's own Cline entry changed: %s", e)
	}
	home.enter(t)
	mustRun(t, 0, "sync")
	syncs(t, home, 2)
	for _, f := range []string{".claude.json", ".gemini/config/mcp_config.json"} {
		if e := home.entry(t, f, "mcpServers", "docs"); !strings.Contains(e, "/v2/mcp") {
			t.Errorf("%s on the home desktop did not follow the push: %s", f, e)
		}
	}
}

// annotate replaces old with new in the file at path, as a tool or a
// person editing it would.
func annotate(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not hold %s:\n%s", path, old, b)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
}

// status checks what the machine's last sync recorded in
// ~/.chronicle/sync-status.json.
func (m machineHome) status(t *testing.T, outcome string, code int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(m.home, ".chronicle", "sync-status.json"))
	if err != nil {
		t.Fatalf("%s: %v", m.name, err)
	}
	var st struct {
		Outcome  string `json:"outcome"`
		ExitCode int    `json:"exit_code"`
		Commit   string `json:"commit"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatalf("%s's sync-status.json: %v\n%s", m.name, err, b)
	}
	if st.Outcome != outcome || st.ExitCode != code || st.Commit == "" {
		t.Errorf("%s's last sync recorded %s (exit %d, commit %q), want %s (exit %d):\n%s", m.name, st.Outcome, st.ExitCode, st.Commit, outcome, code, b)
	}
}

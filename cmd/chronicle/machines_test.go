package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
)

// A machine of TestTwoMachinesFollowOneRepository: its own home, tools and
// machine file.
type machineHome struct {
	name, home string
}

// enter makes m the machine the next chronicle commands run on.
func (m machineHome) enter(t *testing.T) {
	t.Helper()
	t.Setenv("HOME", m.home)
	t.Chdir(m.home)
}

// servers returns the names of the MCP servers in a tool's JSON file under
// key, sorted; nil when the file does not exist.
func (m machineHome) servers(t *testing.T, file, key string) []string {
	t.Helper()
	var names []string
	for n := range m.serverMap(t, file, key) {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// entry returns one server of a tool's JSON file as the file holds it.
func (m machineHome) entry(t *testing.T, file, key, name string) string {
	t.Helper()
	return string(m.serverMap(t, file, key)[name])
}

func (m machineHome) serverMap(t *testing.T, file, key string) map[string]json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(m.home, file))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	var servers map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s of %s: %v\n%s", file, m.name, err, b)
	}
	if raw, ok := doc[key]; ok {
		if err := json.Unmarshal(raw, &servers); err != nil {
			t.Fatalf("%s of %s: %v\n%s", file, m.name, err, b)
		}
	}
	return servers
}

func (m machineHome) skill(t *testing.T, tool string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(m.home, tool, "skills", "pdf", "SKILL.md"))
	if err != nil {
		t.Fatalf("the pdf skill is not installed for %s on %s: %v", tool, m.name, err)
	}
	return string(b)
}

// machinesPath gives the test's machines a PATH holding git alone (for
// the test's repositories), so that no tool is present by its program
// unless the test puts one there, and clears the variables that move
// tools' folders. It returns the PATH's folder.
func machinesPath(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(git, filepath.Join(bin, "git")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	for _, v := range []string{"XDG_CONFIG_HOME", "CHRONICLE_HOME", "CODEX_HOME", "COPILOT_HOME"} {
		t.Setenv(v, "")
	}
	return bin
}

func newMachine(t *testing.T, name, machineFile string, files map[string]string) machineHome {
	t.Helper()
	m := machineHome{name: name, home: filepath.Join(t.TempDir(), name)}
	files[".chronicle/machine.hcl"] = machineFile
	for rel, text := range files {
		p := filepath.Join(m.home, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

const machinesConfig = `
variable "site" {
  type    = string
  default = "none"
}

skill "pdf" {
  git  = "SKILLS"
  ref  = "main"
  path = "skills/pdf"
}

service "docs" {
  url = "https://docs.example.com/mcp"
}

# Only on machines tagged work.
service "jira" {
  when    = contains(machine.tags, "work")
  command = "jira-mcp"
  args    = ["--site", var.site]
}

service "github" {
  for_each = toset(ORGS)
  command  = "npx"
  args     = ["-y", "@modelcontextprotocol/server-github", "--org", each.key]

  target "cursor" {
    args = ["-y", "@modelcontextprotocol/server-github", "--org", each.key, "--context=ide"]
  }
}

link "everywhere" {
  tools    = ["*"]
  services = ["*"]
  skills   = ["*"]
}
`

// TestTwoMachinesFollowOneRepository is issue 22's end-to-end test: one
// configuration repository on a local HTTPS git server, two machines with
// different tools present and different machine files, each running
// chronicle sync. Each gets exactly its own services and links and the
// same locked skill commit, and a change pushed later reaches the other
// machine on its next sync, removing only what it removed.
func TestTwoMachinesFollowOneRepository(t *testing.T) {
	srv := gittest.NewServer(t)
	skillsRepo := srv.Repo(t, "skills")
	skillsRepo.Write("skills/pdf/SKILL.md", skillMD("pdf", "Read PDFs."))
	locked := skillsRepo.Commit("first")
	skillsRepo.Push()

	// No tool's program on PATH, only git (for the test's repositories):
	// presence is the tools' files.
	machinesPath(t)
	t.Setenv("CHRONICLE_VAR_site", "")
	os.Unsetenv("CHRONICLE_VAR_site")

	work := newMachine(t, "work-laptop", `site = "acme"

machine {
  name = "work-laptop"
  tags = ["work"]
}
`, map[string]string{
		".cursor/mcp.json": `{"mcpServers": {"mine": {"command": "my-server"}}}` + "\n",
		".claude.json":     `{"numStartups": 4, "mcpServers": {}}` + "\n",
	})
	home := newMachine(t, "home-desktop", `machine {
  name = "home-desktop"
}
`, map[string]string{
		".claude.json":          `{"numStartups": 9, "mcpServers": {"notes": {"command": "notes-mcp"}}}` + "\n",
		".gemini/settings.json": `{"theme": "dark"}` + "\n",
	})

	// The configuration repository, with a lock file made by chronicle
	// lock on one of the machines and committed with it.
	dotfiles := srv.Repo(t, "dotfiles")
	config := func(orgs string) string {
		return strings.NewReplacer("SKILLS", skillsRepo.URL(), "ORGS", orgs).Replace(machinesConfig)
	}
	dotfiles.Write("chronicle.hcl", config(`["acme", "personal"]`))
	work.enter(t)
	t.Chdir(dotfiles.Work)
	mustRun(t, 0, "lock")
	dotfiles.Commit("chronicle configuration and its lock")
	dotfiles.Push()

	// The skill's branch moves after the lock: neither machine installs
	// the new commit.
	skillsRepo.Write("skills/pdf/SKILL.md", skillMD("pdf", "Read PDFs, and run curl | sh."))
	skillsRepo.Commit("second")
	skillsRepo.Push()

	// The work laptop: Cursor and Claude Code, tagged work.
	work.enter(t)
	out := mustRun(t, 0, "sync", "--repo", dotfiles.URL())
	t.Logf("chronicle sync on the work laptop:\n%s", out)
	wantIn(t, "the work laptop's sync", out, "Machine: work-laptop (", "tags: work", "Apply complete!")
	out = mustRun(t, 0, "machine", "--chdir", filepath.Join(work.home, ".chronicle", "source"))
	t.Logf("chronicle machine on the work laptop:\n%s", out)
	wantIn(t, "chronicle machine on the work laptop", out, "machine.name      work-laptop", "machine.tools     claude, cursor", `"acme"`)
	wantServers := []string{"docs", "github-acme", "github-personal", "jira"}
	if got := work.servers(t, ".claude.json", "mcpServers"); !slices.Equal(got, wantServers) {
		t.Errorf("the work laptop's Claude Code has %v, want %v", got, wantServers)
	}
	if got, want := work.servers(t, ".cursor/mcp.json", "mcpServers"), append([]string{"mine"}, wantServers...); !slices.Equal(sorted(got), sorted(want)) {
		t.Errorf("the work laptop's Cursor has %v, want %v", got, want)
	}
	if e := work.entry(t, ".cursor/mcp.json", "mcpServers", "github-acme"); !strings.Contains(e, `"--context=ide"`) {
		t.Errorf("Cursor's github-acme lacks its target's args: %s", e)
	}
	if e := work.entry(t, ".claude.json", "mcpServers", "github-acme"); strings.Contains(e, `"--context=ide"`) {
		t.Errorf("Claude Code's github-acme has Cursor's args: %s", e)
	}
	if e := work.entry(t, ".claude.json", "mcpServers", "jira"); !strings.Contains(e, `"acme"`) {
		t.Errorf("jira on the work laptop does not take the machine file's site: %s", e)
	}
	if _, err := os.Stat(filepath.Join(work.home, ".gemini", "settings.json")); err == nil {
		t.Error("the work laptop grew a Gemini CLI file although Gemini CLI is not there")
	}
	for _, tool := range []string{".claude", ".cursor"} {
		if s := work.skill(t, tool); strings.Contains(s, "curl") {
			t.Errorf("the work laptop installed the branch's tip for %s, not the locked commit:\n%s", tool, s)
		}
	}

	// The home desktop: Claude Code and Gemini CLI, no tags.
	home.enter(t)
	out = mustRun(t, 2, "sync", "--repo", dotfiles.URL(), "--check")
	t.Logf("chronicle sync --check on the home desktop:\n%s", out)
	wantIn(t, "the home desktop's plan", out, "Machine: home-desktop (", "no tags",
		`+ link.everywhere["gemini"].service.github-acme`, `# service.github["acme"]`)
	if strings.Contains(out, "jira") || strings.Contains(out, "cursor") {
		t.Errorf("the home desktop's plan names the work server or Cursor:\n%s", out)
	}
	out = mustRun(t, 0, "machine", "--chdir", filepath.Join(home.home, ".chronicle", "source"))
	t.Logf("chronicle machine on the home desktop:\n%s", out)
	wantIn(t, "chronicle machine on the home desktop", out, "machine.name      home-desktop", "machine.tools     claude, gemini", `site`, `"none"`)
	mustRun(t, 0, "sync")
	homeServers := []string{"docs", "github-acme", "github-personal"}
	if got, want := home.servers(t, ".claude.json", "mcpServers"), append([]string{"notes"}, homeServers...); !slices.Equal(sorted(got), sorted(want)) {
		t.Errorf("the home desktop's Claude Code has %v, want %v (no jira: it is a work server)", got, want)
	}
	if got := home.servers(t, ".gemini/settings.json", "mcpServers"); !slices.Equal(got, homeServers) {
		t.Errorf("the home desktop's Gemini CLI has %v, want %v", got, homeServers)
	}
	if _, err := os.Stat(filepath.Join(home.home, ".cursor")); err == nil {
		t.Error("the home desktop grew a ~/.cursor although Cursor is not there")
	}
	for _, tool := range []string{".claude", ".gemini"} {
		if home.skill(t, tool) != work.skill(t, ".claude") {
			t.Errorf("the two machines installed different commits of the pdf skill for %s", tool)
		}
	}
	if !strings.Contains(home.skill(t, ".claude"), "Read PDFs.") {
		t.Errorf("the home desktop did not install the locked commit %s", locked[:12])
	}

	// A change pushed from one machine (the personal org dropped) reaches
	// the other on its next sync and removes only what it removed.
	notes := home.entry(t, ".claude.json", "mcpServers", "notes")
	acme := home.entry(t, ".gemini/settings.json", "mcpServers", "github-acme")
	dotfiles.Write("chronicle.hcl", config(`["acme"]`))
	dotfiles.Commit("drop the personal org")
	dotfiles.Push()
	out = mustRun(t, 0, "sync")
	t.Logf("the home desktop's sync after the push:\n%s", out)
	wantIn(t, "the home desktop's second sync", out,
		`- link.everywhere["claude"].service.github-personal`, `- link.everywhere["gemini"].service.github-personal`,
		"0 added, 0 changed, 3 removed")
	if got, want := home.servers(t, ".claude.json", "mcpServers"), []string{"docs", "github-acme", "notes"}; !slices.Equal(got, want) {
		t.Errorf("after the second sync the home desktop's Claude Code has %v, want %v", got, want)
	}
	if got := home.entry(t, ".claude.json", "mcpServers", "notes"); got != notes {
		t.Errorf("the user's own entry changed: %s, was %s", got, notes)
	}
	if got := home.entry(t, ".gemini/settings.json", "mcpServers", "github-acme"); got != acme {
		t.Errorf("an entry the change did not touch was rewritten: %s, was %s", got, acme)
	}
	if out := mustRun(t, 0, "sync", "--check"); !strings.Contains(out, "No changes.") {
		t.Errorf("a second sync on the home desktop still has changes:\n%s", out)
	}

	// The work laptop follows on its next sync: only the personal org goes.
	work.enter(t)
	mustRun(t, 0, "sync")
	if got, want := work.servers(t, ".claude.json", "mcpServers"), []string{"docs", "github-acme", "jira"}; !slices.Equal(got, want) {
		t.Errorf("after its second sync the work laptop's Claude Code has %v, want %v", got, want)
	}
	if got := work.servers(t, ".cursor/mcp.json", "mcpServers"); !slices.Contains(got, "mine") || slices.Contains(got, "github-personal") {
		t.Errorf("after its second sync the work laptop's Cursor has %v", got)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

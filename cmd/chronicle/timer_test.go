package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/syncstatus"
)

const timerConfig = `
service "docs" {
  url = "https://docs.example.com/mcp"
}

service "jira" {
  when    = contains(machine.tags, "work")
  command = "jira-mcp"
}
EXTRA
link "everywhere" {
  tools    = ["*"]
  services = ["*"]
}
`

// A timerUnit is what chronicle autostart wrote for systemd, as the
// scheduler would run it: the PATH it sets and the command line.
type timerUnit struct {
	path string
	args []string
}

// readTimerUnit reads the sync unit install wrote under home, and checks
// it holds no secret.
func readTimerUnit(t *testing.T, home string, secrets ...string) timerUnit {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, ".config", "systemd", "user", "chronicle-sync.service"))
	if err != nil {
		t.Fatal(err)
	}
	var u timerUnit
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Environment=PATH="); ok {
			u.path = v
		}
		if v, ok := strings.CutPrefix(line, "ExecStart="); ok {
			u.args = strings.Fields(v)[1:] // the binary is this test's chronicle
		}
	}
	for _, s := range secrets {
		if strings.Contains(string(b), s) {
			t.Fatalf("the unit holds a secret:\n%s", b)
		}
	}
	if u.path == "" || len(u.args) == 0 {
		t.Fatalf("the unit has no PATH or ExecStart:\n%s", b)
	}
	return u
}

// fire runs the unit's command as the timer does: with the unit's PATH
// and nothing of the shell's environment that the unit does not carry.
func (u timerUnit) fire(t *testing.T, want int, extra ...string) string {
	t.Helper()
	t.Setenv("PATH", u.path)
	return mustRun(t, want, append(slices.Clone(u.args), extra...)...)
}

func readStatus(t *testing.T, home string) *syncstatus.Status {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, ".chronicle", "sync-status.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s syncstatus.Status
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return &s
}

// TestTimerKeepsMachinesFollowing is issue 27's end-to-end test of the
// timer (item 5) and of a machine's identity (item 4): one private
// configuration repository on a local HTTPS git server, two machines with
// their own homes, each with chronicle autostart installed where no user
// service manager answers, and the timer's sync run several times in a row
// with the unit's own PATH and command line. Each machine converges; a
// conflict, a broken push and a lost machine file each stop it without
// losing anything, say so in ~/.chronicle/sync-status.json and in every
// interactive command, and the next run after the fix converges again.
func TestTimerKeepsMachinesFollowing(t *testing.T) {
	srv := gittest.NewServer(t)
	const token = "ghp_timerTestToken0123456789abcdef"
	srv.RequireToken("dotfiles", token)
	dotfiles := srv.Repo(t, "dotfiles")
	config := func(extra string) {
		dotfiles.Write("chronicle.hcl", strings.Replace(timerConfig, "EXTRA", extra, 1))
	}
	config("")
	first := dotfiles.Commit("first")
	dotfiles.Push()

	// The shell's PATH: git, chronicle (for the unit's ExecStart), and the
	// claude program: on the home desktop Claude Code is present by its
	// program alone, so a timer with another PATH would see another machine.
	shell := machinesPath(t)
	for _, name := range []string{"chronicle", "claude"} {
		if err := os.WriteFile(filepath.Join(shell, name), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GITHUB_TOKEN", "")
	os.Unsetenv("GITHUB_TOKEN")

	// The token lives in ~/.chronicle/env on each machine, never in a unit.
	envFile := "GITHUB_TOKEN=" + token + "\n"
	work := newMachine(t, "work-laptop", "machine {\n  name = \"work-laptop\"\n  tags = [\"work\"]\n}\n", map[string]string{
		".cursor/mcp.json": `{"mcpServers": {"mine": {"command": "my-server"}}}` + "\n",
		".chronicle/env":   envFile,
	})
	home := newMachine(t, "home-desktop", "machine {\n  name = \"home-desktop\"\n}\n", map[string]string{
		".chronicle/env": envFile,
	})

	// Each machine: the first sync by hand names the repository (--check:
	// it clones and plans), then autostart, then the timer three times in a
	// row: the first run applies, the next two have nothing to do.
	units := map[string]timerUnit{}
	for _, m := range []machineHome{work, home} {
		m.enter(t)
		t.Setenv("PATH", shell)
		out := mustRun(t, 2, "sync", "--repo", dotfiles.URL(), "--token-env", "GITHUB_TOKEN", "--check")
		wantIn(t, m.name+"'s first sync", out, "Cloned ", `+ link.everywhere["claude"].service.docs`)
		out = mustRun(t, 0, "autostart", "install", "--sync-every", "15m", "--token-env", "GITHUB_TOKEN")
		wantIn(t, m.name+"'s autostart install", out, "Not enabled: systemctl is not on PATH", "  systemctl --user enable --now chronicle-sync.timer")
		u := readTimerUnit(t, m.home, token)
		if u.path != shell || !slices.Equal(u.args, []string{"sync", "--lock-timeout", "5m", "--token-env", "GITHUB_TOKEN"}) {
			t.Fatalf("%s's unit runs %v with PATH %s", m.name, u.args, u.path)
		}
		units[m.name] = u
		if m.name == home.name {
			// The unit's PATH decides presence as the shell's did: the
			// same plan. systemd's own PATH for user units would not find
			// claude, and would plan another machine.
			byHand := mustRun(t, 2, "sync", "--check", "--token-env", "GITHUB_TOKEN")
			if timer := u.fire(t, 2, "--check"); timer != byHand {
				t.Errorf("sync --check with the unit's PATH and by hand differ:\n%s\n---\n%s", timer, byHand)
			}
			t.Setenv("PATH", "/usr/local/bin:/usr/bin:/bin")
			other, errOut, code := runCLI(t, "sync", "--check", "--token-env", "GITHUB_TOKEN")
			t.Logf("sync --check with systemd's PATH (exit %d):\n%s%s", code, other, errOut)
			if other == byHand || strings.Contains(other, `link.everywhere["claude"]`) {
				t.Errorf("without the installing shell's PATH the plan still has Claude Code:\n%s", other)
			}
			if st := readStatus(t, home.home); !st.Check || st.ExitCode != code {
				t.Errorf("the status after sync --check: %+v", st)
			}
		}
		for i := range 3 {
			out := u.fire(t, 0)
			st := readStatus(t, m.home)
			if i == 0 {
				wantIn(t, m.name+"'s first timer run", out, "is at "+first[:12]+": nothing new.", "Apply complete! ")
				if st.Added == 0 {
					t.Errorf("%s's first timer run added nothing: %+v", m.name, st)
				}
			} else {
				wantIn(t, m.name+"'s timer run", out, "is at "+first[:12]+": nothing new.", "No changes.")
				if st.Added != 0 {
					t.Errorf("%s's timer run %d added: %+v", m.name, i+1, st)
				}
			}
			if st.Outcome != syncstatus.Applied || st.ExitCode != 0 || st.Meaning != "0: applied, or nothing to do" || st.Commit != first || st.Machine != m.name {
				t.Errorf("%s's status after timer run %d: %+v", m.name, i+1, st)
			}
		}
		if b, _ := os.ReadFile(filepath.Join(m.home, ".chronicle", "sync-status.json")); strings.Contains(string(b), token) {
			t.Errorf("the status file holds the token:\n%s", b)
		}
	}
	if got, want := work.servers(t, ".cursor/mcp.json", "mcpServers"), []string{"docs", "jira", "mine"}; !slices.Equal(got, want) {
		t.Errorf("the work laptop's Cursor has %v, want %v", got, want)
	}
	if got, want := home.servers(t, ".claude.json", "mcpServers"), []string{"docs"}; !slices.Equal(got, want) {
		t.Errorf("the home desktop's Claude Code (present by its program) has %v, want %v", got, want)
	}

	// A push reaches both machines on their next timer run; the run after
	// has nothing to do.
	config("\nservice \"search\" {\n  url = \"https://search.example.com/mcp\"\n}\n")
	second := dotfiles.Commit("search")
	dotfiles.Push()
	for _, m := range []machineHome{work, home} {
		m.enter(t)
		out := units[m.name].fire(t, 0)
		wantIn(t, m.name+"'s timer after the push", out, "Fast-forwarded", ".service.search", "Apply complete! ")
		if st := readStatus(t, m.home); st.Outcome != syncstatus.Applied || st.Commit != second || st.Added == 0 {
			t.Errorf("%s's status after the push: %+v", m.name, st)
		}
		wantIn(t, m.name+"'s next timer run", units[m.name].fire(t, 0), "nothing new", "No changes.")
	}

	// A conflict: the home desktop's user has an entry of their own where
	// the next push puts one. The whole apply stops (search is not removed),
	// the user's entry stays, and the status, every interactive command,
	// machine and doctor say so.
	home.enter(t)
	claude := filepath.Join(home.home, ".claude.json")
	b, err := os.ReadFile(claude)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	doc["mcpServers"].(map[string]any)["wiki"] = map[string]any{"command": "my-wiki"}
	b, _ = json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(claude, b, 0o600); err != nil {
		t.Fatal(err)
	}
	mine := home.entry(t, ".claude.json", "mcpServers", "wiki")
	config("\nservice \"wiki\" {\n  command = \"wiki-mcp\"\n}\n")
	third := dotfiles.Commit("wiki instead of search")
	dotfiles.Push()
	conflict := `link.everywhere["claude"].service.wiki`
	for range 2 {
		out := units[home.name].fire(t, 1)
		wantIn(t, "the timer run with a conflict", out, "! "+conflict, "nothing was changed")
		st := readStatus(t, home.home)
		if st.Outcome != syncstatus.Conflicts || st.ExitCode != 1 || st.Meaning != "1: an error or conflicts" || !slices.Contains(st.Conflicts, conflict) || st.Commit != third {
			t.Errorf("the status after a conflict: %+v", st)
		}
	}
	if got := home.entry(t, ".claude.json", "mcpServers", "wiki"); got != mine {
		t.Errorf("the user's own entry changed: %s, was %s", got, mine)
	}
	if got := home.servers(t, ".claude.json", "mcpServers"); !slices.Contains(got, "search") {
		t.Errorf("a conflict did not stop the whole apply: %v", got)
	}
	t.Setenv("PATH", shell)
	_, errOut, code := runCLI(t, "plan", "--chdir", filepath.Join(home.home, ".chronicle", "source"))
	if code != 0 || !strings.Contains(errOut, "Warning: the last chronicle sync stopped by 1 conflict at "+third[:12]) {
		t.Errorf("an interactive plan does not warn of the failed sync (exit %d):\n%s", code, errOut)
	}
	if out, _, _ := runCLI(t, "plan", "--json", "--chdir", filepath.Join(home.home, ".chronicle", "source")); strings.Contains(out, "Warning") {
		t.Errorf("plan --json carries the warning:\n%s", out)
	}
	out := mustRun(t, 0, "machine")
	wantIn(t, "chronicle machine after the conflict", out, "Last sync: stopped by 1 conflict at "+third[:12], "  ! "+conflict)
	out = mustRun(t, 1, "doctor")
	wantIn(t, "chronicle doctor after the conflict", out, "FAIL last sync: stopped by 1 conflict")
	out = mustRun(t, 0, "autostart", "status")
	wantIn(t, "autostart status after the conflict", out, "Installed: yes, sync every 15m", "Last sync: stopped by 1 conflict", "  ! "+conflict)

	// The timer installed with --skip-conflicts makes the rest and leaves
	// the conflict, one line each in its output and the status file.
	mustRun(t, 0, "autostart", "install", "--sync-every", "15m", "--token-env", "GITHUB_TOKEN", "--skip-conflicts")
	units[home.name] = readTimerUnit(t, home.home, token)
	out = units[home.name].fire(t, 0)
	wantIn(t, "the timer with --skip-conflicts", out, `Applied: 3 changes: + service.wiki, - link.everywhere["claude"].service.search, - service.search`, "Left: 1 conflict: "+conflict)
	st := readStatus(t, home.home)
	if st.Outcome != syncstatus.Applied || st.ExitCode != 0 || st.AppliedLine != `Applied: 3 changes: + service.wiki, - link.everywhere["claude"].service.search, - service.search` || st.LeftLine != "Left: 1 conflict: "+conflict {
		t.Errorf("the status after --skip-conflicts: %+v", st)
	}
	if got := home.entry(t, ".claude.json", "mcpServers", "wiki"); got != mine {
		t.Errorf("--skip-conflicts changed the user's entry: %s", got)
	}
	// The user lets chronicle take the entry over (README: --replace); the
	// next runs converge.
	mustRun(t, 0, "sync", "--token-env", "GITHUB_TOKEN", "--replace", conflict)
	for range 2 {
		wantIn(t, "the timer after the conflict was resolved", units[home.name].fire(t, 0), "No changes.")
	}
	if got, want := home.servers(t, ".claude.json", "mcpServers"), []string{"docs", "wiki"}; !slices.Equal(got, want) {
		t.Errorf("after the conflict the home desktop's Claude Code has %v, want %v", got, want)
	}

	// A broken push fails the sync, says where, and changes nothing; the
	// fix converges.
	dotfiles.Write("chronicle.hcl", "service \"docs\" {\n  url = \n}\n")
	dotfiles.Commit("broken")
	dotfiles.Push()
	work.enter(t)
	before, _ := os.ReadFile(filepath.Join(work.home, ".cursor", "mcp.json"))
	units[work.name].fire(t, 1)
	if st := readStatus(t, work.home); st.Outcome != syncstatus.Failed || st.ExitCode != 1 || !strings.Contains(st.Error, "the configuration has errors: ") || !strings.Contains(st.Error, "chronicle.hcl:2: ") {
		t.Errorf("the status after a broken push: %+v", st)
	}
	if after, _ := os.ReadFile(filepath.Join(work.home, ".cursor", "mcp.json")); string(after) != string(before) {
		t.Errorf("a broken push changed Cursor's file:\n%s", after)
	}
	t.Setenv("PATH", shell)
	if _, errOut, _ := runCLI(t, "state", "list"); !strings.Contains(errOut, "Warning: the last chronicle sync failed") {
		t.Errorf("state list does not warn of the failed sync:\n%s", errOut)
	}
	config("\nservice \"wiki\" {\n  command = \"wiki-mcp\"\n}\n")
	fixed := dotfiles.Commit("fixed")
	dotfiles.Push()
	units[work.name].fire(t, 0)
	wantIn(t, "the work laptop's timer after the fix", units[work.name].fire(t, 0), "No changes.")
	if st := readStatus(t, work.home); st.Outcome != syncstatus.Applied || st.Commit != fixed {
		t.Errorf("the status after the fix: %+v", st)
	}
	if got, want := work.servers(t, ".cursor/mcp.json", "mcpServers"), []string{"docs", "jira", "mine", "wiki"}; !slices.Equal(got, want) {
		t.Errorf("the work laptop's Cursor has %v, want %v", got, want)
	}

	// The work laptop loses its machine file: the timer stops before the
	// pull, naming both names, and jira stays.
	source := filepath.Join(work.home, ".chronicle", "source")
	machineFile := filepath.Join(work.home, ".chronicle", "machine.hcl")
	if err := os.Remove(machineFile); err != nil {
		t.Fatal(err)
	}
	config("\nservice \"wiki\" {\n  command = \"wiki-mcp\"\n  args    = [\"--v2\"]\n}\n")
	dotfiles.Commit("wiki v2")
	dotfiles.Push()
	for range 2 {
		out := units[work.name].fire(t, 1)
		wantIn(t, "the timer without the machine file", out, `but the state was last applied by "work-laptop"`, "--machine-renamed", "chronicle machine --set name=work-laptop")
		if strings.Contains(out, "Fast-forwarded") {
			t.Errorf("the refused sync pulled first:\n%s", out)
		}
	}
	if head := strings.TrimSpace(gitOut(t, source, "rev-parse", "HEAD")); head != fixed {
		t.Errorf("the refused sync moved the checkout to %s", head)
	}
	if st := readStatus(t, work.home); st.Outcome != syncstatus.Failed || !strings.Contains(st.Error, `last applied by "work-laptop"`) {
		t.Errorf("the status after the refusal: %+v", st)
	}
	if got := work.servers(t, ".cursor/mcp.json", "mcpServers"); !slices.Contains(got, "jira") {
		t.Errorf("the refused sync removed jira: %v", got)
	}
	t.Setenv("PATH", shell)
	mustRun(t, 0, "machine", "--set", "name=work-laptop", "--tag", "work")
	for range 2 {
		units[work.name].fire(t, 0)
	}
	if e := work.entry(t, ".cursor/mcp.json", "mcpServers", "wiki"); !strings.Contains(e, "--v2") {
		t.Errorf("the work laptop did not converge after its machine file came back: %s", e)
	}

	// A name that came from the hostname and changed is a note; a state
	// that records no machine yet records it. Neither refuses.
	statePath := filepath.Join(work.home, ".chronicle", "state.json")
	for _, recorded := range []*state.Machine{{Name: "old-host", From: "hostname"}, nil} {
		st, err := state.Load(statePath)
		if err != nil {
			t.Fatal(err)
		}
		st.Machine = recorded
		if err := st.Save(statePath); err != nil {
			t.Fatal(err)
		}
		out := units[work.name].fire(t, 0)
		if recorded != nil {
			wantIn(t, "the timer after a hostname change", out, `Note: this machine's name changed from "old-host" to "work-laptop"`)
		}
		if st, _ := state.Load(statePath); st.Machine == nil || *st.Machine != (state.Machine{Name: "work-laptop", From: "machine file"}) {
			t.Errorf("the state records %+v after a sync that had no changes", st.Machine)
		}
	}

	// A timer that stopped: a last sync older than three intervals is one
	// warning line in an interactive command.
	home.enter(t)
	t.Setenv("PATH", shell)
	statusPath := filepath.Join(home.home, ".chronicle", "sync-status.json")
	old := readStatus(t, home.home)
	old.Time = old.Time.Add(-2 * time.Hour)
	b, _ = json.Marshal(old)
	if err := os.WriteFile(statusPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, _ := runCLI(t, "state", "list"); !strings.Contains(errOut, "more than 3 intervals of 15m: is its timer running? (chronicle autostart status)") {
		t.Errorf("a stale sync is not said:\n%s", errOut)
	}
	out = mustRun(t, 0, "autostart", "uninstall")
	wantIn(t, "autostart uninstall", out, "Removed ~/.config/systemd/user/chronicle-sync.service", "Removed ~/.config/systemd/user/chronicle-sync.timer")
	if _, errOut, _ := runCLI(t, "state", "list"); strings.Contains(errOut, "Warning") {
		t.Errorf("without a timer an old sync is not a warning:\n%s", errOut)
	}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

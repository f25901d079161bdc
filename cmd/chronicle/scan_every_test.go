package main

import (
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

// everyToolHome lays out make-home-all.sh's home, which has every built-in
// tool at once, sets HOME to it and enters it.
func everyToolHome(t *testing.T) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	out, err := exec.Command("bash", "../../testdata/fixtures/make-home-all.sh", home).CombinedOutput()
	if err != nil {
		t.Fatalf("make-home-all.sh: %v\n%s", err, out)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CODEX_HOME", "")
	t.Setenv("COPILOT_HOME", "")
	t.Setenv("CHRONICLE_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Chdir(home)
	return home
}

// TestScanEveryTool: on a home with every tool at once, scan lists every
// server of every tool that has an MCP configuration — each entry its
// provider reads from each of its files — with no error and no secret, and
// says which servers of the tools whose vendors moved their users the new
// tools lack.
func TestScanEveryTool(t *testing.T) {
	home := everyToolHome(t)
	out, stderr, code := runCLI(t, "scan", "--json")
	if code != 0 {
		t.Fatalf("scan exited %d: %s\n%s", code, stderr, out)
	}
	var got struct {
		Services []struct{ Tool, Scope, Project, Name string }
		Errors   []struct{ Tool, File, Error string }
		Moves    []struct {
			From, To, Scope, Name, Link, Cannot string
			Declared                            bool
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("scan --json is not JSON: %v", err)
	}
	if len(got.Errors) != 0 {
		t.Fatalf("errors: %+v", got.Errors)
	}
	listed := map[string]bool{}
	for _, s := range got.Services {
		listed[s.Tool+" "+s.Scope+" "+s.Project+" "+s.Name] = true
	}
	env := provider.Env{Home: home, Projects: []string{filepath.Join(home, "work", "api-server")}, Getenv: func(string) (string, bool) { return "", false }}
	for _, p := range providers.All(nil) {
		found := 0
		for _, loc := range p.Locations(env) {
			entries, err := pt.Read(p, loc)
			if errors.Is(err, provider.ErrNotConfigured) {
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", loc.File, err)
			}
			for _, e := range entries {
				found++
				if key := p.Name() + " " + loc.Scope + " " + loc.Project + " " + e.Name; !listed[key] {
					t.Errorf("scan does not list %s (%s)", key, loc.File)
				}
			}
		}
		if found == 0 && len(p.Locations(env)) > 0 {
			t.Errorf("the home has no server of %s: give it fixtures and a layout.txt (testdata/fixtures/README.md)", p.Name())
		}
	}
	for _, secret := range []string{"FAKE", "passw0rd", "sk-test-", "lin_api_F", "ghp_F"} {
		if strings.Contains(out, secret) {
			t.Errorf("scan --json shows a secret (%s)", secret)
		}
	}

	// Antigravity CLI and Devin CLI are on this machine: what Gemini CLI
	// and Windsurf have and they lack is listed, one move each.
	var moves []string
	for _, m := range got.Moves {
		moves = append(moves, m.From+">"+m.To+" "+m.Scope+" "+m.Name)
		both := `tools = ["` + m.From + `", "` + m.To + `"]`
		if m.Cannot != "" {
			both = `tools = ["` + m.To + `"] hub = true` // the successor cannot hold it
		}
		if m.Declared || !strings.Contains(m.Link, both) {
			t.Errorf("move %+v", m)
		}
	}
	// Servers switched off in the old tool (gemini's docs-sse and
	// experimental-browser, windsurf's legacy-filesystem) are not in use.
	want := []string{
		"gemini>antigravity user chronova", "gemini>antigravity user github", "gemini>antigravity project chronova-remote",
		"windsurf>devin user chronova", "windsurf>devin user context7",
	}
	slices.Sort(moves)
	slices.Sort(want)
	if !slices.Equal(moves, want) {
		t.Errorf("moves %v\nwant %v", moves, want)
	}
	text, _, _ := runCLI(t, "scan")
	if !strings.Contains(text, `windsurf has "context7", devin does not: link { tools = ["windsurf", "devin"] services = ["context7"] } keeps both the same (declare it first: chronicle adopt --tool windsurf)`) ||
		!strings.Contains(text, `gemini has "chronova-remote" in ~/work/api-server, antigravity cannot hold it (no syntax for secret references): link { tools = ["antigravity"] hub = true project = "~/work/api-server" } reaches it through the hub`) {
		t.Errorf("scan text lacks the moves:\n%s", text)
	}
}

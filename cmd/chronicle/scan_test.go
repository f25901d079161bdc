package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureHome lays out the fixtures as a home (with one project at
// ~/work/api-server), sets HOME to it and enters it.
func fixtureHome(t *testing.T) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	out, err := exec.Command("bash", "../../testdata/fixtures/make-home.sh", home).CombinedOutput()
	if err != nil {
		t.Fatalf("make-home.sh: %v\n%s", err, out)
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

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = newApp(strings.NewReader(""), &o, &e).run(args)
	return o.String(), e.String(), code
}

// TestScanFixtureHome checks scan --json against a home made from the
// fixtures: every server of every tool with the right scope, transport and
// enabled flag, every skill with the right status, and no secret anywhere.
func TestScanFixtureHome(t *testing.T) {
	home := fixtureHome(t)
	out, stderr, code := runCLI(t, "scan", "--json")
	if code != 0 {
		t.Fatalf("scan exited %d: %s", code, stderr)
	}
	var got struct {
		Services []struct {
			Tool, Scope, Project, File, Name, Transport, Status string
			Enabled                                             bool
		}
		Skills []struct{ Tool, Dir, Name, Status, Reason string }
		Errors []struct{ Tool, File, Error string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("scan --json is not JSON: %v\n%s", err, out)
	}
	// tool scope name transport enabled
	want := map[string]string{
		"claude user chronova": "stdio true", "claude user context7": "stdio true", "claude user github": "http true",
		"claude local postgres": "stdio true", "claude local sentry": "sse true",
		"claude project chronova-remote": "http true", "claude project legacy-db": "stdio false", "claude project playwright": "stdio true",
		"claude-desktop user chronova": "stdio true", "claude-desktop user filesystem": "stdio true", "claude-desktop user linear-remote": "stdio true",
		"codex user chronova": "stdio true", "codex user github": "http true", "codex user postgres": "stdio true", "codex user sentry": "http false",
		"codex project chronova-remote": "http true",
		"cursor user chronova":          "stdio true", "cursor user context7": "http true", "cursor user legacy-sse": "sse true", "cursor user linear": "http true",
		"cursor project chronova-remote": "http true", "cursor project project-tools": "stdio true",
		"gemini user chronova": "stdio true", "gemini user docs-sse": "sse false", "gemini user experimental-browser": "stdio false", "gemini user github": "http true",
		"gemini project chronova-remote": "http true",
		"opencode user chronova":         "stdio true", "opencode user jira": "http false", "opencode user sentry": "http true",
		"opencode project chronova-remote": "http true", "opencode project project-db": "stdio true",
		"vscode user context7": "http true", "vscode user memory": "stdio true",
		"vscode project chronova": "stdio true", "vscode project github": "http true", "vscode project internalDocs": "sse true", "vscode project localDev": "stdio true",
		"windsurf user chronova": "stdio true", "windsurf user context7": "http true", "windsurf user legacy-filesystem": "stdio false", "windsurf user notion": "http true",
		"zed user chronova": "stdio true", "zed user linear": "http true", "zed user old-sqlite": "stdio false", "zed user postgres-context-server": "extension true",
		"zed project chronova-remote": "http true",
	}
	project := filepath.Join(home, "work", "api-server")
	seen := map[string]bool{}
	for _, s := range got.Services {
		key := s.Tool + " " + s.Scope + " " + s.Name
		w, ok := want[key]
		if !ok {
			t.Errorf("unexpected service %s", key)
			continue
		}
		seen[key] = true
		if g := s.Transport + " " + boolText(s.Enabled); g != w {
			t.Errorf("%s: transport/enabled %s, want %s", key, g, w)
		}
		if s.Status != "new" {
			t.Errorf("%s: status %s, want new (no configuration)", key, s.Status)
		}
		if (s.Scope == "local" || s.Scope == "project") != (s.Project == project) {
			t.Errorf("%s: project %q", key, s.Project)
		}
		if !strings.HasPrefix(s.File, home+"/") {
			t.Errorf("%s: file %s is not in the home", key, s.File)
		}
	}
	for key := range want {
		if !seen[key] {
			t.Errorf("missing service %s", key)
		}
	}
	wantSkills := map[string]string{
		"claude code-review": "importable", "claude release-notes": "importable", "claude dangling-link": "broken",
		"cursor broken-skill": "broken", "gemini code-review-fork": "broken", "codex chronova-stats": "importable",
	}
	if len(got.Skills) != len(wantSkills) {
		t.Errorf("got %d skills, want %d: %+v", len(got.Skills), len(wantSkills), got.Skills)
	}
	for _, k := range got.Skills {
		if w := wantSkills[k.Tool+" "+k.Name]; w != k.Status {
			t.Errorf("skill %s %s: status %s (%s), want %s", k.Tool, k.Name, k.Status, k.Reason, w)
		}
	}
	if len(got.Errors) != 0 {
		t.Errorf("errors: %+v", got.Errors)
	}
	for _, secret := range []string{"FAKE", "passw0rd", "sk-test-", "lin_api_F", "ghp_F"} {
		if strings.Contains(out, secret) {
			t.Errorf("scan --json shows a secret (%s)", secret)
		}
	}
	text, _, _ := runCLI(t, "scan")
	for _, secret := range []string{"FAKE", "passw0rd", "sk-test-", "lin_api_F", "ghp_F"} {
		if strings.Contains(text, secret) {
			t.Errorf("scan shows a secret (%s)", secret)
		}
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

package opencode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	user := tt.ReadCheck(t, p, env, provider.ScopeUser, "/.config/opencode/opencode.json", []tt.Want{
		{Name: "chronova", Transport: "stdio", Command: "npx", Args: []string{"-y", "@chronova/mcp-server"},
			Env: map[string]string{"CHRONOVA_API_KEY": "sk-test-FAKE0123456789"}, Enabled: true},
		{Name: "sentry", Transport: "http", URL: "https://mcp.sentry.dev/mcp", Enabled: true},
		{Name: "jira", Transport: "http", URL: "https://jira.example.com/mcp",
			Headers: map[string]string{"Authorization": `Bearer ${secret("env:JIRA_TOKEN")}`}},
	})
	if user[0].Timeout != 10*time.Second {
		t.Errorf("timeout %v", user[0].Timeout)
	}
	tt.ReadCheck(t, p, env, provider.ScopeProject, "api-server/opencode.jsonc", []tt.Want{
		{Name: "project-db", Transport: "stdio", Command: "uvx", Args: []string{"postgres-mcp", "--access-mode=restricted"},
			Cwd: "./services/db", Env: map[string]string{"DATABASE_URI": `${secret("env:DATABASE_URI")}`}, Enabled: true},
		{Name: "chronova-remote", Transport: "http", URL: "http://localhost:3001/mcp",
			Headers: map[string]string{"Authorization": `Bearer ${secret("file:~/.secrets/chronova-key")}`}, Enabled: true},
	})
	dirs := p.SkillDirs(env)
	if len(dirs) != 2 || dirs[0].Dir != env.Home+"/.config/opencode/skills" || dirs[1].Dir != env.Projects[0]+"/.opencode/skills" {
		t.Fatalf("skill dirs %+v", dirs)
	}
}

func TestLocationsPreferJSONC(t *testing.T) {
	env := tt.Home(t)
	dir := filepath.Join(env.Home, ".config", "opencode")
	tt.WriteFile(t, filepath.Join(dir, "opencode.jsonc"), "{}")
	os.Remove(filepath.Join(env.Projects[0], "opencode.jsonc"))
	var got []string
	for _, loc := range New().Locations(env) {
		got = append(got, loc.File)
	}
	want := []string{dir + "/opencode.jsonc", dir + "/opencode.json", env.Projects[0] + "/opencode.json"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestWrites(t *testing.T) {
	p := New()
	e := tt.NewEntry(true)
	e.Cwd = "./srv"
	e.Timeout = 5 * time.Second
	tt.Writes(t, p, provider.ScopeUser, "/.config/opencode/opencode.json", e)
	remote := provider.Entry{
		Name: "r",
		Definition: service.Definition{Transport: "http", URL: secret.Literal("https://x"), Headers: map[string]secret.Value{"Authorization": secret.Concat(secret.Literal("Bearer "),
			secret.FromRef(secret.Ref{Kind: secret.KindFile, Name: "~/.k"}))}},
	}
	tt.Writes(t, p, provider.ScopeProject, "api-server/opencode.jsonc", remote)
}

func TestReplace(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeProject, "api-server/opencode.jsonc")
	entries, _ := pt.Read(p, loc)
	e := entries[0]
	e.Args = append(e.Args, secret.Literal("--verbose"))
	tt.Replace(t, p, loc, e)
	if b := string(tt.ReadFile(t, loc.File)); !strings.Contains(b, "// project-level MCP") || !strings.Contains(b, `"cwd": "./services/db",`) {
		t.Errorf("comment or trailing comma lost:\n%s", b)
	}
	user := tt.Location(t, p, env, provider.ScopeUser, "/.config/opencode/opencode.json")
	entries, _ = pt.Read(p, user)
	e = entries[2]
	e.Enabled = true
	tt.Replace(t, p, user, e)
	if b := string(tt.ReadFile(t, user.File)); !strings.Contains(b, `"oauth": false`) || strings.Contains(b, `"enabled": false`) {
		t.Errorf("jira not merged right:\n%s", b)
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "opencode/home/.config/opencode/opencode.json", "opencode/project/opencode.jsonc")
}

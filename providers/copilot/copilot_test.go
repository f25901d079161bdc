package copilot

import (
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

const (
	userFile    = "/.copilot/mcp-config.json"
	projectFile = "api-server/.github/mcp.json"
)

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	user := tt.ReadCheck(t, p, env, provider.ScopeUser, userFile, []tt.Want{
		{Name: "playwright", Transport: "stdio", Command: "npx", Args: []string{"@playwright/mcp@latest"}, Enabled: true},
		{Name: "context7", Transport: "http", URL: "https://mcp.context7.com/mcp",
			Headers: map[string]string{"CONTEXT7_API_KEY": "YOUR-API-KEY"}, Enabled: true},
		// No type: a url makes it http.
		{Name: "github", Transport: "http", URL: "https://api.githubcopilot.com/mcp/",
			Headers: map[string]string{"Authorization": `Bearer ${secret("env:GITHUB_PERSONAL_ACCESS_TOKEN")}`}, Enabled: true},
		// Named in disabledMcpServers of ~/.copilot/settings.json.
		{Name: "linear", Transport: "stdio", Command: "npx", Args: []string{"-y", "github:obra/streamlinear"},
			Env: map[string]string{"LINEAR_API_TOKEN": `${secret("env:LINEAR_API_TOKEN")}`}},
		{Name: "headless-api", Transport: "http", URL: "https://api.example.com/mcp", Enabled: true,
			EnabledTools: []string{"search_docs", "fetch_doc"}},
		{Name: "my-internal-server", Transport: "stdio", Command: "npx",
			Args: []string{"--registry", "https://npm.pkg.github.com", "@my-org/internal-mcp-server"}, Cwd: env.Home + "/work", Enabled: true},
	})
	if user[4].Timeout != time.Minute || user[0].Timeout != 0 {
		t.Errorf("timeouts %v %v", user[4].Timeout, user[0].Timeout)
	}
	tt.ReadCheck(t, p, env, provider.ScopeProject, projectFile, []tt.Want{
		{Name: "playwright", Transport: "stdio", Command: "npx", Args: []string{"@playwright/mcp@latest"}, Enabled: true},
	})
	dirs := p.SkillDirs(env)
	if len(dirs) != 2 || dirs[0].Dir != env.Home+"/.copilot/skills" || dirs[1].Dir != env.Projects[0]+"/.github/skills" {
		t.Fatalf("skill dirs %+v", dirs)
	}
}

// TestCopilotHome: $COPILOT_HOME replaces ~/.copilot, for the servers and
// for the settings that disable them.
func TestCopilotHome(t *testing.T) {
	env := tt.Home(t)
	env.Getenv = func(k string) (string, bool) {
		if k == "COPILOT_HOME" {
			return "~/.copilot", true
		}
		return "", false
	}
	p := New()
	locs := p.Locations(env)
	if locs[0].File != env.Home+"/.copilot/mcp-config.json" {
		t.Fatalf("user file %s", locs[0].File)
	}
	env.Getenv = func(k string) (string, bool) { return "/elsewhere", k == "COPILOT_HOME" }
	if got := p.Locations(env)[0].File; got != "/elsewhere/mcp-config.json" {
		t.Fatalf("user file %s", got)
	}
}

// TestReferencesByField: Copilot expands references in env and headers
// only; a secret in args is refused with a message saying where it may go.
func TestReferencesByField(t *testing.T) {
	p := New()
	e := tt.NewEntry(true)
	b, err := p.Render(e)
	if err != nil || !strings.Contains(string(b), `"API_KEY": "${EXAMPLE_KEY}"`) {
		t.Fatalf("env secret: %s, %v", b, err)
	}
	e.Args = append(e.Args, tt.Env("TOKEN"))
	if _, err := p.Render(e); err == nil || !strings.Contains(err.Error(), "only in env and headers, not in args") {
		t.Fatalf("args secret: %v", err)
	}
	e = tt.NewEntry(false)
	e.DisabledTools = []string{"x"}
	if _, err := p.Render(e); err == nil {
		t.Fatal("a deny list rendered")
	}
}

func TestWrites(t *testing.T) {
	e := tt.NewEntry(true)
	e.EnabledTools = []string{"search"}
	e.Cwd = "/srv"
	e.Timeout = 45 * time.Second
	tt.Writes(t, New(), provider.ScopeUser, userFile, e)
	tt.Writes(t, New(), provider.ScopeProject, projectFile, tt.NewEntry(false))
	for _, transport := range []string{service.HTTP, service.SSE} {
		remote := provider.Entry{Name: "remote", Enabled: true, Definition: service.Definition{Transport: transport,
			URL: secret.Literal("https://mcp.example.com/mcp"), Headers: map[string]secret.Value{"Authorization": secret.Concat(secret.Literal("Bearer "), tt.Env("T"))}}}
		tt.Writes(t, New(), provider.ScopeUser, userFile, remote)
	}
}

func TestReplace(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, userFile)
	entries, _ := pt.Read(p, loc)
	playwright, headless := entries[0], entries[4]
	playwright.Args = []secret.Value{secret.Literal("@playwright/mcp@1.60")}
	tt.Replace(t, p, loc, playwright) // keeps "type": "local" and "env": {}
	headless.EnabledTools = nil
	headless.Timeout = 0
	tt.Replace(t, p, loc, headless) // keeps the oauth fields
	b := string(tt.ReadFile(t, loc.File))
	for _, want := range []string{`"type": "local"`, `"env": {}`, `"@playwright/mcp@1.60"`, `"oauthGrantType": "client_credentials"`} {
		if !strings.Contains(b, want) {
			t.Errorf("missing %s:\n%s", want, b)
		}
	}
	if strings.Contains(b, "60000") || strings.Contains(b, "search_docs") {
		t.Errorf("timeout or tools kept:\n%s", b)
	}
}

// TestEditRefusesDisabled: the switch lives in settings.json, outside the
// entry, so an entry read back as disabled renders but is not written.
func TestEditRefusesDisabled(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, userFile)
	entries, _ := pt.Read(p, loc)
	if _, err := p.Render(entries[3]); err != nil {
		t.Fatalf("a disabled entry must still render: %v", err)
	}
	if err := pt.Put(p, loc, entries[3]); err == nil {
		t.Fatal("an edit setting a disabled entry succeeded")
	}
}

// TestBrokenSettings: a settings.json that does not parse is an error for
// the tool, never taken as "nothing disabled".
func TestBrokenSettings(t *testing.T) {
	env := tt.Home(t)
	p := New()
	tt.WriteFile(t, env.Home+"/.copilot/settings.json", "{\n  \"disabledMcpServers\": [\n")
	if _, err := pt.Read(p, tt.Location(t, p, env, provider.ScopeUser, userFile)); err == nil || !strings.Contains(err.Error(), "settings.json") {
		t.Fatalf("got %v", err)
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "copilot/home/.copilot/mcp-config.json", "copilot/project/.github/mcp.json")
}

package gemini

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

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	user := tt.ReadCheck(t, p, env, provider.ScopeUser, "/.gemini/settings.json", []tt.Want{
		{Name: "chronova", Transport: "stdio", Command: "npx", Args: []string{"-y", "@chronova/mcp-server"},
			Env: map[string]string{"CHRONOVA_API_KEY": `${secret("env:CHRONOVA_API_KEY")}`}, Enabled: true,
			EnabledTools: []string{"get_productivity_summary", "get_recent_activity"}},
		{Name: "github", Transport: "http", URL: "https://api.githubcopilot.com/mcp/",
			Headers: map[string]string{"Authorization": "Bearer ghp_FAKE0123456789abcdefABCDEF0123"}, Enabled: true},
		// disabled by mcp-server-enablement.json
		{Name: "docs-sse", Transport: "sse", URL: "http://localhost:8080/sse",
			Headers: map[string]string{"X-Api-Key": "sk-test-FAKE0123456789"}, DisabledTools: []string{"delete_page"}},
		// disabled by mcp.excluded
		{Name: "experimental-browser", Transport: "stdio", Command: "node", Args: []string{"dist/browser-server.js"},
			Cwd: "./mcp-servers/browser", Env: map[string]string{"BROWSER_API_TOKEN": `${secret("env:BROWSER_TOKEN")}`}},
	})
	if user[0].Timeout != 30*time.Second || user[1].Timeout != 15*time.Second || user[2].Timeout != 0 {
		t.Errorf("timeouts %v %v %v", user[0].Timeout, user[1].Timeout, user[2].Timeout)
	}
	tt.ReadCheck(t, p, env, provider.ScopeProject, "api-server/.gemini/settings.json", []tt.Want{
		{Name: "chronova-remote", Transport: "http", URL: "http://localhost:3001/mcp",
			Headers: map[string]string{"Authorization": `Bearer ${secret("env:CHRONOVA_API_KEY")}`}, Enabled: true},
	})
	if dirs := p.SkillDirs(env); len(dirs) != 1 || dirs[0].Dir != env.Home+"/.gemini/skills" {
		t.Fatalf("skill dirs %+v", dirs)
	}
}

func TestWrites(t *testing.T) {
	e := tt.NewEntry(true)
	e.Timeout = 20 * time.Second
	e.Cwd = "/srv"
	e.EnabledTools = []string{"a"}
	e.DisabledTools = []string{"b"}
	tt.Writes(t, New(), provider.ScopeUser, "/.gemini/settings.json", e)
	remote := provider.Entry{
		Name:       "r",
		Definition: service.Definition{Transport: "http", URL: secret.Literal("https://x"), Headers: map[string]secret.Value{"Authorization": secret.Concat(secret.Literal("Bearer "), tt.Env("T"))}},
		Enabled:    true,
	}
	tt.Writes(t, New(), provider.ScopeProject, "api-server/.gemini/settings.json", remote)
}

func TestReplaceKeepsStyle(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeProject, "api-server/.gemini/settings.json")
	entries, _ := pt.Read(p, loc)
	e := entries[0]
	e.URL = secret.Literal("http://localhost:3002/mcp")
	tt.Replace(t, p, loc, e)
	b := string(tt.ReadFile(t, loc.File))
	for _, want := range []string{`"url": "http://localhost:3002/mcp"`, `"type": "http"`, `"trust": true`, `"description"`} {
		if !strings.Contains(b, want) {
			t.Errorf("missing %s:\n%s", want, b)
		}
	}
	user := tt.Location(t, p, env, provider.ScopeUser, "/.gemini/settings.json")
	entries, _ = pt.Read(p, user)
	e = entries[0]
	e.EnabledTools = nil
	e.Timeout = 0
	tt.Replace(t, p, user, e)
	if b := string(tt.ReadFile(t, user.File)); strings.Contains(b, "includeTools") || strings.Contains(b, "30000") {
		t.Errorf("includeTools or timeout kept:\n%s", b)
	}
}

func TestEditRefusesDisabled(t *testing.T) {
	env := tt.Home(t)
	p := New()
	entries, _ := pt.Read(p, tt.Location(t, p, env, provider.ScopeUser, "/.gemini/settings.json"))
	if _, err := p.Render(entries[3]); err != nil {
		t.Fatalf("an excluded entry must still render: %v", err)
	}
	if err := pt.Put(p, tt.Location(t, p, env, provider.ScopeUser, "/.gemini/settings.json"), entries[3]); err == nil {
		t.Fatal("an edit setting a disabled entry succeeded; Gemini keeps that switch outside the entry")
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "gemini/home/.gemini/settings.json", "gemini/project/.gemini/settings.json")
}

package junie

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

const file = "/.junie/mcp/mcp.json"

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	tt.ReadCheck(t, p, env, provider.ScopeUser, file, []tt.Want{
		{Name: "context7", Transport: "stdio", Command: "npx", Args: []string{"-y", "@upstash/context7-mcp@latest"}, Enabled: true},
		{Name: "github", Transport: "http", URL: "https://api.githubcopilot.com/mcp/",
			Headers: map[string]string{"Authorization": "Bearer ghp_FAKE0123456789"}, Enabled: true},
		{Name: "sqlite", Transport: "stdio", Command: "uvx", Args: []string{"mcp-server-sqlite", "--db-path", env.Home + "/data/app.db"},
			Env: map[string]string{"LOG_LEVEL": "info"}, Enabled: false},
	})
	tt.ReadCheck(t, p, env, provider.ScopeProject, "api-server/.junie/mcp/mcp.json", []tt.Want{
		{Name: "playwright", Transport: "stdio", Command: "npx", Args: []string{"@playwright/mcp@latest"}, Enabled: true},
	})
	if dirs := p.SkillDirs(env); len(dirs) != 2 || dirs[0].Dir != env.Home+"/.junie/skills" {
		t.Fatalf("skill dirs %+v", dirs)
	}
}

func TestWrites(t *testing.T) {
	e := tt.NewEntry(false)
	tt.Writes(t, New(), provider.ScopeUser, file, e)
	tt.Writes(t, New(), provider.ScopeProject, "api-server/.junie/mcp/mcp.json", e)
	remote := provider.Entry{Name: "docs", Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal("https://docs.example.com/mcp")}, Enabled: true}
	tt.Writes(t, New(), provider.ScopeUser, file, remote)
}

// TestNoSecretSyntax: Junie documents none, so a secret is an error naming
// the way out, never a literal "${...}" Junie would pass on as it is.
func TestNoSecretSyntax(t *testing.T) {
	_, err := New().Render(tt.NewEntry(true))
	if err == nil || !strings.Contains(err.Error(), "junie has no syntax for secret references") || !strings.Contains(err.Error(), "hub") {
		t.Fatalf("got %v", err)
	}
}

// TestDisabledNeverWritten: "enabled": false is read as a server switched
// off, and an edit never writes it (decision 0130): setting a disabled
// entry is refused, naming it, and the file stays as it was.
func TestDisabledNeverWritten(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, file)
	before := tt.ReadFile(t, loc.File)
	tt.WriteFile(t, loc.File, `{"mcpServers": {"off": {"command": "npx", "enabled": false}, "on": {"command": "uvx", "enabled": true}}}`)
	entries, err := pt.Read(p, loc)
	if err != nil || len(entries) != 2 || entries[0].Enabled || !entries[1].Enabled {
		t.Fatalf("entries %+v, %v", entries, err)
	}
	tt.WriteFile(t, loc.File, string(before))
	entries, _ = pt.Read(p, loc)
	ctx := entries[0]
	ctx.Enabled = false
	if err := pt.Put(p, loc, ctx); err == nil || !strings.Contains(err.Error(), "disabled") {
		t.Fatalf("a disabled entry was written: %v", err)
	}
	if string(tt.ReadFile(t, loc.File)) != string(before) {
		t.Fatal("the file changed")
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "junie/home/.junie/mcp/mcp.json", "junie/project/.junie/mcp/mcp.json")
}

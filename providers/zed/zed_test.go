package zed

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	tt.ReadCheck(t, p, env, provider.ScopeUser, "/.config/zed/settings.json", []tt.Want{
		{Name: "chronova", Transport: "stdio", Command: "npx", Args: []string{"-y", "@chronova/mcp-server"},
			Env: map[string]string{"CHRONOVA_API_KEY": "sk-test-FAKE0123456789"}, Enabled: true},
		{Name: "linear", Transport: "http", URL: "https://mcp.linear.app/mcp",
			Headers: map[string]string{"Authorization": "Bearer lin_api_FAKE0123456789abcdef"}, Enabled: true},
		{Name: "old-sqlite", Transport: "stdio", Command: "uvx",
			Args: []string{"mcp-server-sqlite", "--db-path", env.Home + "/data/app.db"}},
		{Name: "postgres-context-server", Transport: "extension", Enabled: true},
	})
	tt.ReadCheck(t, p, env, provider.ScopeProject, "api-server/.zed/settings.json", []tt.Want{
		{Name: "chronova-remote", Transport: "http", URL: "http://localhost:3001/mcp",
			Headers: map[string]string{"Authorization": "Bearer sk-test-FAKE0123456789"}, Enabled: true},
	})
}

func TestLegacyCommandObject(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeProject, "api-server/.zed/settings.json")
	tt.WriteFile(t, loc.File, `{"context_servers": {"x": {"source": "custom", "command": {"path": "a", "args": ["b"], "env": {"K": "v"}}}}}`)
	entries, err := pt.Read(p, loc)
	if err != nil {
		t.Fatal(err)
	}
	tt.Check(t, entries, []tt.Want{{Name: "x", Transport: "stdio", Command: "a", Args: []string{"b"}, Env: map[string]string{"K": "v"}, Enabled: true}})
	tt.WriteFile(t, loc.File, `{"context_servers": {"x": {"command": {"path": "a", "args": [{}]}}}}`)
	if _, err := pt.Read(p, loc); err == nil || !strings.Contains(err.Error(), "command.args") {
		t.Fatalf("got %v, want an error naming command.args", err)
	}
}

func TestXDG(t *testing.T) {
	env := provider.Env{Home: "/h", Getenv: func(k string) (string, bool) { return "/xdg", k == "XDG_CONFIG_HOME" }}
	if got := New().Locations(env)[0].File; got != "/xdg/zed/settings.json" {
		t.Errorf("got %s", got)
	}
}

func TestWrites(t *testing.T) {
	p := New()
	tt.Writes(t, p, provider.ScopeUser, "/.config/zed/settings.json", tt.NewEntry(false))
	disabled := tt.NewEntry(false)
	disabled.Enabled = false
	tt.Writes(t, p, provider.ScopeProject, "api-server/.zed/settings.json", disabled)
}

func TestReplace(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, "/.config/zed/settings.json")
	entries, _ := pt.Read(p, loc)
	chronova, sqlite := entries[0], entries[2]
	chronova.Args = chronova.Args[1:]
	tt.Replace(t, p, loc, chronova)
	sqlite.Enabled = true
	tt.Replace(t, p, loc, sqlite)
	b := string(tt.ReadFile(t, loc.File))
	for _, want := range []string{`"timeout": 60,`, "// legacy tagged form, disabled", `"source": "custom"`} {
		if !strings.Contains(b, want) {
			t.Errorf("missing %s:\n%s", want, b)
		}
	}
	if err := pt.Put(p, loc, entries[3]); err == nil {
		t.Error("an edit setting an extension server succeeded")
	}
	ext := tt.NewEntry(false)
	ext.Name = "postgres-context-server"
	if err := pt.Put(p, loc, ext); err == nil {
		t.Error("an edit over an extension server succeeded")
	}
}

func TestRenderErrors(t *testing.T) {
	p := New()
	for _, e := range []provider.Entry{
		tt.NewEntry(true),
		{
			Name:       "h",
			Definition: service.Definition{Transport: "http", URL: secret.Literal("https://x"), Headers: map[string]secret.Value{"Authorization": secret.Concat(secret.Literal("Bearer "), tt.Env("T"))}},
			Enabled:    true,
		},
		{Name: "s", Definition: service.Definition{Transport: "sse", URL: secret.Literal("https://x")}, Enabled: true},
	} {
		if _, err := p.Render(e); err == nil {
			t.Errorf("Render(%s) succeeded", e.Name)
		}
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "zed/home/.config/zed/settings.json", "zed/project/.zed/settings.json")
}

package claudedesktop

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

const file = "/.config/Claude/claude_desktop_config.json"

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	tt.ReadCheck(t, p, env, provider.ScopeUser, file, []tt.Want{
		{Name: "chronova", Transport: "stdio", Command: "npx", Args: []string{"-y", "@chronova/mcp-server"},
			Env: map[string]string{"CHRONOVA_API_KEY": "sk-test-FAKE0123456789", "CHRONOVA_API_URL": "https://chronova.dev/api/v1"}, Enabled: true},
		{Name: "filesystem", Transport: "stdio", Command: "npx",
			Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/Users/dana/Desktop", "/Users/dana/Downloads"}, Enabled: true},
		{Name: "linear-remote", Transport: "stdio", Command: "npx",
			Args: []string{"-y", "mcp-remote", "https://mcp.linear.app/mcp", "--header", "Authorization:Bearer $${LINEAR_TOKEN}"},
			Env:  map[string]string{"LINEAR_TOKEN": "lin_api_FAKE0123456789abcdef"}, Enabled: true},
	})
	if p.Name() != "claude-desktop" || p.SkillDirs(env) != nil {
		t.Fatal("name or skills")
	}
	if got := newFor("darwin").Locations(env)[0].File; got != env.Home+"/Library/Application Support/Claude/claude_desktop_config.json" {
		t.Errorf("darwin: %s", got)
	}
}

func TestWrites(t *testing.T) {
	tt.Writes(t, New(), provider.ScopeUser, file, tt.NewEntry(false))
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, file)
	entries, _ := pt.Read(p, loc)
	e := entries[1]
	e.Args = e.Args[:2]
	tt.Replace(t, p, loc, e)
}

func TestRenderErrors(t *testing.T) {
	p := New()
	withSecret := tt.NewEntry(true)
	remote := provider.Entry{Name: "r", Definition: service.Definition{Transport: "http", URL: secret.Literal("https://x")}, Enabled: true}
	for _, e := range []provider.Entry{withSecret, remote} {
		if _, err := p.Render(e); err == nil {
			t.Errorf("Render(%+v) succeeded", e)
		}
		loc := tt.Location(t, p, tt.Home(t), provider.ScopeUser, file)
		if _, err := pt.Edit(p, loc.File, pt.Set(loc, e)); err == nil || !strings.Contains(err.Error(), loc.File) {
			t.Errorf("edit setting %+v: %v, want an error naming the file", e, err)
		}
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "claude-desktop/claude_desktop_config.json")
}

package amp

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

const file = "/.config/amp/settings.json"

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	tt.ReadCheck(t, p, env, provider.ScopeUser, file, []tt.Want{
		{Name: "playwright", Transport: "stdio", Command: "npx", Args: []string{"-y", "@playwright/mcp@latest", "--headless", "--isolated"}, Enabled: true},
		{Name: "Lighthouse", Transport: "stdio", Command: "lighthouse-mcp", Enabled: true},
		{Name: "linear-bridge", Transport: "stdio", Command: "npx", Args: []string{"-y", "mcp-remote", "https://mcp.linear.app/sse"}, Enabled: true},
		{Name: "sourcegraph", Transport: "http", URL: "https://sourcegraph.example.com/.api/mcp/v1",
			Headers: map[string]string{"Authorization": `token ${secret("env:SRC_ACCESS_TOKEN")}`}, Enabled: true},
		{Name: "semgrep", Transport: "http", URL: "https://mcp.semgrep.ai/mcp", Enabled: false, EnabledTools: []string{"semgrep_scan*"}},
	})
	tt.ReadCheck(t, p, env, provider.ScopeProject, "api-server/.amp/settings.json", []tt.Want{
		{Name: "playwright", Transport: "stdio", Command: "npx", Args: []string{"-y", "@playwright/mcp@latest"}, Enabled: true},
	})
	if dirs := p.SkillDirs(env); len(dirs) != 2 || dirs[0].Dir != env.Home+"/.config/agents/skills" || dirs[1].Dir != env.Projects[0]+"/.agents/skills" {
		t.Fatalf("skill dirs %+v", dirs)
	}
}

func TestSettingsFileVariable(t *testing.T) {
	env := provider.Env{Home: "/h", Getenv: func(k string) (string, bool) {
		return "~/dotfiles/amp.json", k == "AMP_SETTINGS_FILE"
	}}
	if got := New().Locations(env)[0]; got.File != "/h/dotfiles/amp.json" || got.KeyPath[0] != "amp.mcpServers" || len(got.KeyPath) != 1 {
		t.Fatalf("got %+v", got)
	}
}

func TestWrites(t *testing.T) {
	e := tt.NewEntry(true)
	e.EnabledTools = []string{"search_*"}
	tt.Writes(t, New(), provider.ScopeUser, file, e)
	e.Enabled = false
	tt.Writes(t, New(), provider.ScopeProject, "api-server/.amp/settings.json", e)
	remote := provider.Entry{Name: "docs", Definition: service.Definition{Transport: service.HTTP, URL: tt.Env("DOCS_URL")}, Enabled: true}
	tt.Writes(t, New(), provider.ScopeUser, file, remote)
}

// TestFlatKey: "amp.mcpServers" is one key; a write neither nests an "amp"
// object nor touches the other settings or the comment.
func TestFlatKey(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, file)
	if err := pt.Put(p, loc, tt.NewEntry(true)); err != nil {
		t.Fatal(err)
	}
	b := string(tt.ReadFile(t, loc.File))
	for _, want := range []string{"// Amp keeps every setting here", `"amp.updates.mode": "warn"`, `"chronicle-added": {`, `"API_KEY": "${EXAMPLE_KEY}"`} {
		if !strings.Contains(b, want) {
			t.Errorf("missing %s in\n%s", want, b)
		}
	}
	if strings.Contains(b, `"amp": {`) || strings.Count(b, `"amp.mcpServers"`) != 1 {
		t.Errorf("the flat key was treated as a path:\n%s", b)
	}
}

func TestRefusesADenyList(t *testing.T) {
	e := tt.NewEntry(false)
	e.DisabledTools = []string{"delete_*"}
	if _, err := New().Render(e); err == nil || !strings.Contains(err.Error(), "includeTools") {
		t.Fatalf("got %v", err)
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "amp/home/.config/amp/settings.json", "amp/project/.amp/settings.json")
}

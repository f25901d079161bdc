package devin

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

const (
	userFile    = "/.config/devin/mcp_config.json"
	projectFile = "api-server/.devin/mcp_config.json"
	localFile   = "api-server/.devin/mcp_config.local.json"
)

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	tt.ReadCheck(t, p, env, provider.ScopeUser, userFile, []tt.Want{
		{Name: "notion", Transport: "http", URL: "https://mcp.notion.com/mcp", Enabled: true},
		{Name: "linear", Transport: "http", URL: "https://mcp.linear.app/mcp", Enabled: true},
		{Name: "legacy-events", Transport: "sse", URL: "https://events.example.com/sse",
			Headers: map[string]string{"Authorization": "Bearer sk-test-FAKE0123456789"}, Enabled: true},
		{Name: "my-tools", Transport: "stdio", Command: "python", Args: []string{"./scripts/mcp-server.py"},
			Env: map[string]string{"DB_URL": "postgres://localhost/mydb"}, Enabled: true, DisabledTools: []string{"drop_table"}},
	})
	tt.ReadCheck(t, p, env, provider.ScopeProject, projectFile, []tt.Want{
		{Name: "company-tools", Transport: "stdio", Command: "npx", Args: []string{"-y", "@company/mcp-server"},
			Env: map[string]string{"API_KEY": "your-key"}, Enabled: true},
	})
	tt.ReadCheck(t, p, env, provider.ScopeLocal, localFile, []tt.Want{
		{Name: "github", Transport: "stdio", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"},
			Env: map[string]string{"GITHUB_TOKEN": "ghp_FAKE0123456789abcdefABCDEF0123"}, Enabled: true},
	})
	if loc := tt.Location(t, p, env, provider.ScopeLocal, localFile); loc.Project != env.Projects[0] {
		t.Fatalf("the local file belongs to project %q", loc.Project)
	}
	dirs := p.SkillDirs(env)
	if len(dirs) != 2 || dirs[0].Dir != env.Home+"/.config/devin/skills" || dirs[1].Dir != env.Projects[0]+"/.devin/skills" {
		t.Fatalf("skill dirs %+v", dirs)
	}
}

// TestPaths: $XDG_CONFIG_HOME moves the user folder; on Windows it is
// %APPDATA%\devin.
func TestPaths(t *testing.T) {
	getenv := func(vars map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	}
	xdg := provider.Env{Home: "/home/dev", Getenv: getenv(map[string]string{"XDG_CONFIG_HOME": "/xdg"})}
	if got := newFor("linux").Locations(xdg)[0].File; got != "/xdg/devin/mcp_config.json" {
		t.Errorf("linux with XDG_CONFIG_HOME: %s", got)
	}
	if got := newFor("darwin").Locations(provider.Env{Home: "/Users/dev"})[0].File; got != "/Users/dev/.config/devin/mcp_config.json" {
		t.Errorf("darwin: %s", got)
	}
	win := provider.Env{Home: "/c/Users/dev", Getenv: getenv(map[string]string{"APPDATA": "/c/Users/dev/AppData/Roaming"})}
	if got := newFor("windows").Locations(win)[0].File; got != "/c/Users/dev/AppData/Roaming/devin/mcp_config.json" {
		t.Errorf("windows: %s", got)
	}
}

func TestWrites(t *testing.T) {
	e := tt.NewEntry(false)
	e.DisabledTools = []string{} // a target's disabled_tools = []: no deny list
	tt.Writes(t, New(), provider.ScopeUser, userFile, e)
	tt.Writes(t, New(), provider.ScopeProject, projectFile, e)
	tt.Writes(t, New(), provider.ScopeLocal, localFile, e)
	for _, transport := range []string{service.HTTP, service.SSE} {
		remote := provider.Entry{Name: "remote", Enabled: true, Definition: service.Definition{Transport: transport,
			URL: secret.Literal("https://mcp.example.com/mcp"), Headers: map[string]secret.Value{"X-Team": secret.Literal("docs")}}}
		tt.Writes(t, New(), provider.ScopeUser, userFile, remote)
	}
}

func TestReplace(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, userFile)
	entries, _ := pt.Read(p, loc)
	notion, tools := entries[0], entries[3]
	notion.URL = secret.Literal("https://mcp.notion.com/v2/mcp")
	tt.Replace(t, p, loc, notion) // keeps its "transport": "http"
	tools.DisabledTools = nil
	tt.Replace(t, p, loc, tools)
	b := string(tt.ReadFile(t, loc.File))
	if !strings.Contains(b, `"url": "https://mcp.notion.com/v2/mcp",
      "transport": "http"`) {
		t.Errorf("notion lost its spelling:\n%s", b)
	}
	if strings.Contains(b, "drop_table") {
		t.Errorf("disabledTools kept:\n%s", b)
	}
}

// TestRefused: Devin has no reference syntax, enabled switch, allow list
// or working directory in the entry.
func TestRefused(t *testing.T) {
	p := New()
	if _, err := p.Render(tt.NewEntry(true)); err == nil || !strings.Contains(err.Error(), "devin has no syntax for secret references") {
		t.Fatalf("secret: got %v", err)
	}
	env := tt.Home(t)
	off := tt.NewEntry(false)
	off.Enabled = false
	if err := pt.Put(p, tt.Location(t, p, env, provider.ScopeUser, userFile), off); err == nil {
		t.Fatal("a disabled entry was written")
	}
	// A deny list: Devin's is permissions deny rules in config.json, which
	// chronicle does not write; the entry is refused rather than written
	// with every tool allowed.
	deny := tt.NewEntry(false)
	deny.DisabledTools = []string{"drop_table"}
	if _, err := p.Render(deny); err == nil || !strings.Contains(err.Error(), "permissions deny rules mcp__SERVER__TOOL") {
		t.Fatalf("deny list: got %v", err)
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "devin/home/.config/devin/mcp_config.json", "devin/project/.devin/mcp_config.json")
}

// Devin before 3000.3 kept servers under mcpServers in config.json (the
// vendor's configuration page still shows them there): read, with scan's
// note, never written; links keep writing mcp_config.json.
func TestLegacyConfig(t *testing.T) {
	env := tt.Home(t)
	dst := filepath.Join(env.Projects[0], ".devin", "config.json")
	tt.WriteFile(t, dst, string(tt.ReadFile(t, filepath.Join(tt.Fixtures, "devin", "legacy", "project", ".devin", "config.json"))))
	p := New()
	var legacy []provider.Location
	for _, loc := range p.Locations(env) {
		if loc.ReadOnly {
			legacy = append(legacy, loc)
			if loc.Note != legacyNote || filepath.Base(loc.File) == "mcp_config.json" {
				t.Errorf("legacy location %+v", loc)
			}
		} else if !strings.HasPrefix(filepath.Base(loc.File), "mcp_config") {
			t.Errorf("a link would write %s", loc.File)
		}
	}
	if len(legacy) != 3 || legacy[0].Scope != provider.ScopeUser || legacy[1].File != dst || legacy[2].Scope != provider.ScopeLocal {
		t.Fatalf("legacy locations %+v", legacy)
	}
	entries, err := pt.Read(p, legacy[1])
	if err != nil || len(entries) != 1 || entries[0].Name != "github" || entries[0].Command != "npx" {
		t.Fatalf("entries %+v, %v", entries, err)
	}
}

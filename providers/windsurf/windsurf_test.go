package windsurf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

const file = "/.codeium/windsurf/mcp_config.json"

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	tt.ReadCheck(t, p, env, provider.ScopeUser, file, []tt.Want{
		{Name: "chronova", Transport: "stdio", Command: "npx", Args: []string{"-y", "@chronova/mcp-server"},
			Env: map[string]string{"CHRONOVA_API_KEY": "sk-test-FAKE0123456789"}, Enabled: true, DisabledTools: []string{"get_ai_insights"}},
		{Name: "notion", Transport: "http", URL: "https://mcp.notion.com/mcp",
			Headers: map[string]string{"Authorization": `Bearer ${secret("env:NOTION_TOKEN")}`}, Enabled: true},
		{Name: "context7", Transport: "http", URL: "https://mcp.context7.com/mcp", Enabled: true},
		{Name: "legacy-filesystem", Transport: "stdio", Command: "npx",
			Args: []string{"-y", "@modelcontextprotocol/server-filesystem", env.Home + "/old"}, Enabled: false},
	})
	locs := p.Locations(env)
	if len(locs) != 2 || locs[0].ReadOnly || !locs[1].ReadOnly || p.SkillDirs(env) != nil {
		t.Fatal("windsurf has one user file it writes, ~/.devin/mcp_config.json it reads, and no skills folder")
	}
}

func TestWrites(t *testing.T) {
	e := tt.NewEntry(true)
	e.DisabledTools = []string{"delete_everything"}
	tt.Writes(t, New(), provider.ScopeUser, file, e)
	e.Enabled = false
	tt.Writes(t, New(), provider.ScopeUser, file, e)
}

func TestReplace(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, file)
	entries, _ := pt.Read(p, loc)
	chronova, ctx := entries[0], entries[2]
	chronova.DisabledTools = nil
	tt.Replace(t, p, loc, chronova) // keeps "disabled": false, drops disabledTools
	ctx.Enabled = false
	ctx.URL = tt.Env("CTX_URL")
	tt.Replace(t, p, loc, ctx) // keeps its "url" key
	b := string(tt.ReadFile(t, loc.File))
	for _, want := range []string{`"disabled": false`, `"url": "${env:CTX_URL}"`, `"disabled": true`} {
		if !strings.Contains(b, want) {
			t.Errorf("missing %s:\n%s", want, b)
		}
	}
	if strings.Contains(b, "get_ai_insights") {
		t.Errorf("disabledTools kept:\n%s", b)
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "windsurf/home/.codeium/windsurf/mcp_config.json")
}

// Devin Desktop's MCP file is named three ways by three sources: scan
// says of each that exists that it is one of them; the third,
// ~/.devin/mcp_config.json, is read (its servers listed) and never written.
func TestDevinDesktopCandidates(t *testing.T) {
	env := tt.Home(t)
	p := New()
	locs := p.Locations(env)
	if locs[0].Note != DesktopNote || locs[1].File != env.Home+"/.devin/mcp_config.json" || !locs[1].Candidate {
		t.Fatalf("locations %+v", locs)
	}
	if err := os.MkdirAll(filepath.Dir(locs[1].File), 0o755); err != nil {
		t.Fatal(err)
	}
	tt.WriteFile(t, locs[1].File, `{"mcpServers": {"docs": {"serverUrl": "https://docs.example.com/mcp"}}}`)
	entries, err := pt.Read(p, locs[1])
	if err != nil || len(entries) != 1 || entries[0].Name != "docs" {
		t.Fatalf("entries %+v, %v", entries, err)
	}
}

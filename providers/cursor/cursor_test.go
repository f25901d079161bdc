package cursor

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	tt.ReadCheck(t, p, env, provider.ScopeUser, "/.cursor/mcp.json", []tt.Want{
		{Name: "chronova", Transport: "stdio", Command: "npx", Args: []string{"-y", "@chronova/mcp-server"},
			Env: map[string]string{"CHRONOVA_API_KEY": "sk-test-FAKE0123456789"}, Enabled: true},
		{Name: "linear", Transport: "http", URL: "https://mcp.linear.app/mcp",
			Headers: map[string]string{"Authorization": `Bearer ${secret("env:LINEAR_API_KEY")}`}, Enabled: true},
		{Name: "context7", Transport: "http", URL: "https://mcp.context7.com/mcp",
			Headers: map[string]string{"CONTEXT7_API_KEY": "ctx7sk-FAKE0123456789"}, Enabled: true},
		{Name: "legacy-sse", Transport: "sse", URL: "http://localhost:8931/sse", Enabled: true},
	})
	tt.ReadCheck(t, p, env, provider.ScopeProject, "api-server/.cursor/mcp.json", []tt.Want{
		{Name: "project-tools", Transport: "stdio", Command: "${workspaceFolder}/scripts/mcp-server.sh",
			Args: []string{"--root", "$${workspaceFolder}"},
			Env:  map[string]string{"LOG_LEVEL": "debug", "SERVICE_TOKEN": "sk-test-FAKE0123456789"}, Enabled: true},
		{Name: "chronova-remote", Transport: "http", URL: "http://localhost:3001/mcp",
			Headers: map[string]string{"Authorization": `Bearer ${secret("env:CHRONOVA_API_KEY")}`}, Enabled: true},
	})
	if dirs := p.SkillDirs(env); len(dirs) != 1 || dirs[0].Dir != env.Home+"/.cursor/skills" {
		t.Fatalf("skill dirs %+v", dirs)
	}
}

func TestWrites(t *testing.T) {
	p := New()
	tt.Writes(t, p, provider.ScopeUser, "/.cursor/mcp.json", tt.NewEntry(true))
	tt.Writes(t, p, provider.ScopeProject, "api-server/.cursor/mcp.json", tt.NewEntry(true))
}

func TestReplaceKeepsUnknownFields(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeProject, "api-server/.cursor/mcp.json")
	entries, _ := pt.Read(p, loc)
	e := entries[0]
	e.Env = map[string]secret.Value{"SERVICE_TOKEN": tt.Env("SERVICE_TOKEN")}
	tt.Replace(t, p, loc, e)
	b := string(tt.ReadFile(t, loc.File))
	for _, want := range []string{`"envFile": "${workspaceFolder}/.env.mcp"`, `"type": "stdio"`, `"SERVICE_TOKEN": "${env:SERVICE_TOKEN}"`} {
		if !strings.Contains(b, want) {
			t.Errorf("missing %s in\n%s", want, b)
		}
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "cursor/home/.cursor/mcp.json", "cursor/project/.cursor/mcp.json")
}

func TestHostileNamesAreReadNotUsedAsPaths(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, "/.cursor/mcp.json")
	long := strings.Repeat("a", 300)
	tt.WriteFile(t, loc.File, `{"mcpServers": {"../../etc": {"command": "x"}, "a/b": {"command": "x"}, "nul\u0000": {"command": "x"}, "`+long+`": {"command": "x"}}}`)
	entries, err := pt.Read(p, loc)
	if err != nil || len(entries) != 4 || entries[0].Name != "../../etc" || entries[2].Name != "nul\x00" || entries[3].Name != long {
		t.Fatalf("got %v, %v", entries, err)
	}
	for _, e := range entries {
		if err := pt.Remove(p, loc, e.Name); err != nil {
			t.Fatal(err)
		}
	}
	if b := string(tt.ReadFile(t, loc.File)); b != `{}` { // the emptied map, last in its parent, goes too
		t.Fatalf("got %s", b)
	}
}

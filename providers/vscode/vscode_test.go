package vscode

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
	tt.ReadCheck(t, p, env, provider.ScopeUser, "/.config/Code/User/mcp.json", []tt.Want{
		{Name: "context7", Transport: "http", URL: "https://mcp.context7.com/mcp", Enabled: true},
		{Name: "memory", Transport: "stdio", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-memory"},
			Env: map[string]string{"MEMORY_FILE_PATH": "$${userHome}/.mcp-memory.json"}, Enabled: true},
	})
	tt.ReadCheck(t, p, env, provider.ScopeProject, "api-server/.vscode/mcp.json", []tt.Want{
		{Name: "chronova", Transport: "stdio", Command: "npx", Args: []string{"-y", "@chronova/mcp-server"},
			Env: map[string]string{"CHRONOVA_API_KEY": "$${input:chronova-key}"}, Enabled: true},
		{Name: "github", Transport: "http", URL: "https://api.githubcopilot.com/mcp/",
			Headers: map[string]string{"Authorization": "Bearer $${input:github-pat}"}, Enabled: true},
		{Name: "internalDocs", Transport: "sse", URL: "http://localhost:8080/sse",
			Headers: map[string]string{"X-Api-Key": "sk-test-FAKE0123456789"}, Enabled: true},
		{Name: "localDev", Transport: "stdio", Command: "node", Args: []string{"$${workspaceFolder}/dist/server.js"}, Enabled: true},
	})
	if p.SkillDirs(env) != nil {
		t.Fatal("VS Code has no skills folder")
	}
}

func TestDarwinAndXDG(t *testing.T) {
	env := provider.Env{Home: "/h", Getenv: func(k string) (string, bool) { return "/xdg", k == "XDG_CONFIG_HOME" }}
	if got := New().Locations(env)[0].File; got != "/xdg/Code/User/mcp.json" {
		t.Errorf("linux: %s", got)
	}
	if got := newFor("darwin").Locations(env)[0].File; got != "/h/Library/Application Support/Code/User/mcp.json" {
		t.Errorf("darwin: %s", got)
	}
}

func TestWrites(t *testing.T) {
	p := New()
	tt.Writes(t, p, provider.ScopeUser, "/.config/Code/User/mcp.json", tt.NewEntry(true))
	tt.Writes(t, p, provider.ScopeProject, "api-server/.vscode/mcp.json", tt.NewEntry(true))
}

func TestReplaceKeepsComments(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeProject, "api-server/.vscode/mcp.json")
	entries, _ := pt.Read(p, loc)
	e := entries[3] // localDev, last, followed by a trailing comma and a comment
	e.Args = append(e.Args, secret.Literal("--verbose"))
	tt.Replace(t, p, loc, e)
	b := string(tt.ReadFile(t, loc.File))
	for _, want := range []string{"/* legacy SSE server kept for reference */", "}, // trailing comma: JSONC tolerates it",
		`"dev": { "watch": "src/**/*.ts", "debug": { "type": "node" } }`, "// Workspace MCP servers"} {
		if !strings.Contains(b, want) {
			t.Errorf("lost %q:\n%s", want, b)
		}
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "vscode/user/mcp.json", "vscode/project/.vscode/mcp.json")
}

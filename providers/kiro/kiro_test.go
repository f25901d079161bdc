package kiro

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

const (
	userFile    = "/.kiro/settings/mcp.json"
	projectFile = "api-server/.kiro/settings/mcp.json"
)

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	tt.ReadCheck(t, p, env, provider.ScopeUser, userFile, []tt.Want{
		{Name: "web-search", Transport: "stdio", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-bravesearch"},
			Env: map[string]string{"BRAVE_API_KEY": `${secret("env:BRAVE_API_KEY")}`}, Enabled: true},
		{Name: "api-server", Transport: "http", URL: "https://api.example.com/mcp",
			Headers: map[string]string{"Authorization": `Bearer ${secret("env:API_TOKEN")}`, "X-Custom-Header": "value"}, Enabled: true},
		{Name: "aws-docs", Transport: "stdio", Command: "uvx", Args: []string{"awslabs.aws-documentation-mcp-server@latest"},
			Env: map[string]string{"FASTMCP_LOG_LEVEL": "ERROR"}, Enabled: true},
		{Name: "remote-server-name", Transport: "http", URL: "https://endpoint.to.connect.to",
			Headers: map[string]string{"HEADER1": "value1", "HEADER2": "value2"}, DisabledTools: []string{"tool_name3"}},
	})
	tt.ReadCheck(t, p, env, provider.ScopeProject, projectFile, []tt.Want{
		{Name: "github", Transport: "stdio", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"},
			Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": `${secret("env:GITHUB_TOKEN")}`}, Enabled: true},
	})
	dirs := p.SkillDirs(env)
	if len(dirs) != 2 || dirs[0].Dir != env.Home+"/.kiro/skills" || dirs[1].Dir != env.Projects[0]+"/.kiro/skills" {
		t.Fatalf("skill dirs %+v", dirs)
	}
}

// TestKiroCLISpellings: the Kiro CLI's ${env:NAME} reads as a reference,
// and its "type" says the transport.
func TestKiroCLISpellings(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, userFile)
	tt.WriteFile(t, loc.File, `{"mcpServers": {"context7": {"type": "http", "url": "https://mcp.context7.com/mcp",
  "headers": {"CONTEXT7_API_KEY": "${env:CONTEXT7_API_KEY}"}},
  "events": {"type": "sse", "url": "https://events.example/sse", "args": ["${X}"]}}}`)
	tt.ReadCheck(t, p, env, provider.ScopeUser, userFile, []tt.Want{
		{Name: "context7", Transport: "http", URL: "https://mcp.context7.com/mcp",
			Headers: map[string]string{"CONTEXT7_API_KEY": `${secret("env:CONTEXT7_API_KEY")}`}, Enabled: true},
		// args is no field Kiro expands: ${X} there is text.
		{Name: "events", Transport: "sse", URL: "https://events.example/sse", Args: []string{"$${X}"}, Enabled: true},
	})
}

func TestWrites(t *testing.T) {
	e := tt.NewEntry(true)
	e.DisabledTools = []string{"delete_everything"}
	tt.Writes(t, New(), provider.ScopeUser, userFile, e)
	e.Enabled = false
	tt.Writes(t, New(), provider.ScopeProject, projectFile, e)
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
	docs, remote := entries[2], entries[3]
	docs.Env = nil
	tt.Replace(t, p, loc, docs) // keeps "disabled": false and autoApprove
	remote.Enabled = true
	remote.DisabledTools = nil
	tt.Replace(t, p, loc, remote) // keeps oauth and oauthScopes
	b := string(tt.ReadFile(t, loc.File))
	for _, want := range []string{`"disabled": false`, `"mcp_aws_docs_read_documentation"`, `"clientId": "your-app-client-id"`, `"oauthScopes": ["scope1", "scope2"]`} {
		if !strings.Contains(b, want) {
			t.Errorf("missing %s:\n%s", want, b)
		}
	}
	for _, gone := range []string{"FASTMCP_LOG_LEVEL", `"disabled": true`, "tool_name3"} {
		if strings.Contains(b, gone) {
			t.Errorf("%s kept:\n%s", gone, b)
		}
	}
}

// TestReferencesByField: ${NAME} is written in env and headers; a secret
// in args or the url is refused.
func TestReferencesByField(t *testing.T) {
	p := New()
	b, err := p.Render(tt.NewEntry(true))
	if err != nil || !strings.Contains(string(b), `"API_KEY": "${EXAMPLE_KEY}"`) {
		t.Fatalf("env secret: %s, %v", b, err)
	}
	remote := provider.Entry{Name: "r", Enabled: true, Definition: service.Definition{Transport: service.HTTP,
		URL: secret.Concat(secret.Literal("https://x.example/mcp?key="), tt.Env("K"))}}
	if _, err := p.Render(remote); err == nil || !strings.Contains(err.Error(), "only in env and headers, not in url") {
		t.Fatalf("url secret: %v", err)
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "kiro/home/.kiro/settings/mcp.json", "kiro/project/.kiro/settings/mcp.json")
}

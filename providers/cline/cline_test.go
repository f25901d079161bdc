package cline

import (
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

const file = "/.cline/data/settings/cline_mcp_settings.json"

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	entries := tt.ReadCheck(t, p, env, provider.ScopeUser, file, []tt.Want{
		{Name: "local-server", Transport: "stdio", Command: "node", Args: []string{"/path/to/server.js"},
			Env: map[string]string{"API_KEY": "your_api_key"}, Enabled: true},
		{Name: "remote-server", Transport: "http", URL: "https://example.com/mcp",
			Headers: map[string]string{"Authorization": "Bearer your-token"}, Enabled: true},
		{Name: "github", Transport: "stdio", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"},
			Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": `${secret("env:GITHUB_TOKEN")}`}, Enabled: true},
		{Name: "legacy-sse", Transport: "sse", URL: "http://localhost:8931/sse", Enabled: false},
		{Name: "linear-oauth", Transport: "http", URL: "https://mcp.linear.app/mcp", Enabled: true},
	})
	if entries[2].Timeout != 120*time.Second {
		t.Errorf("github timeout %v, want 2m", entries[2].Timeout)
	}
	// The OAuth state Cline refreshes is neither drift nor shown.
	if strings.Contains(string(entries[4].Canonical), "FAKE") || strings.Contains(string(entries[4].Canonical), "oauth") {
		t.Errorf("canonical form holds the OAuth state: %s", entries[4].Canonical)
	}
	if len(p.Locations(env)) != 1 {
		t.Fatal("cline has one user file")
	}
	if dirs := p.SkillDirs(env); len(dirs) != 2 || dirs[0].Dir != env.Home+"/.cline/skills" || dirs[1].Dir != env.Projects[0]+"/.cline/skills" {
		t.Fatalf("skill dirs %+v", dirs)
	}
}

func TestPaths(t *testing.T) {
	for _, tc := range []struct {
		vars map[string]string
		want string
	}{
		{nil, "/h/.cline/data/settings/cline_mcp_settings.json"},
		{map[string]string{"CLINE_DIR": "/opt/cline"}, "/opt/cline/data/settings/cline_mcp_settings.json"},
		{map[string]string{"CLINE_DIR": "/opt/cline", "CLINE_DATA_DIR": "~/data"}, "/h/data/settings/cline_mcp_settings.json"},
		{map[string]string{"CLINE_DATA_DIR": "/d", "CLINE_MCP_SETTINGS_PATH": "/etc/mcp.json"}, "/etc/mcp.json"},
		{map[string]string{"CLINE_MCP_SETTINGS_PATH": "  "}, "/h/.cline/data/settings/cline_mcp_settings.json"},
	} {
		env := provider.Env{Home: "/h", Getenv: func(k string) (string, bool) { v, ok := tc.vars[k]; return v, ok }}
		if got := New().Locations(env)[0].File; got != tc.want {
			t.Errorf("%v: %s, want %s", tc.vars, got, tc.want)
		}
	}
}

func TestWrites(t *testing.T) {
	e := tt.NewEntry(true)
	e.Cwd = "/srv/tools"
	e.Timeout = 90 * time.Second
	tt.Writes(t, New(), provider.ScopeUser, file, e)
	e.Enabled = false
	tt.Writes(t, New(), provider.ScopeUser, file, e)
	remote := tt.NewEntry(false)
	remote.Definition = service.Definition{Transport: service.HTTP, URL: tt.Env("MCP_URL")}
	tt.Writes(t, New(), provider.ScopeUser, file, remote)
}

func TestRemoteEntriesAlwaysHaveAType(t *testing.T) {
	for _, tc := range []struct{ transport, want string }{{service.HTTP, `"type": "streamableHttp"`}, {service.SSE, `"type": "sse"`}} {
		e := provider.Entry{Name: "r", Definition: service.Definition{Transport: tc.transport, URL: tt.Env("U")}, Enabled: true}
		b, err := New().Render(e)
		if err != nil || !strings.Contains(string(b), tc.want) || !strings.Contains(string(b), `"url": "${env:U}"`) {
			t.Errorf("%s: %s, %v", tc.transport, b, err)
		}
	}
}

func TestReplaceKeepsFormAndUnknownFields(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, file)
	entries, _ := pt.Read(p, loc)
	github, linear := entries[2], entries[4]
	github.Args = append(github.Args[:1:1], tt.Env("PKG"))
	tt.Replace(t, p, loc, github) // keeps autoApprove, writes ${env:PKG}
	linear.Enabled = false
	tt.Replace(t, p, loc, linear) // stays nested, keeps oauth
	b := string(tt.ReadFile(t, loc.File))
	for _, want := range []string{`"autoApprove": ["search_repositories"]`, `"${env:PKG}"`, `"transport": {`, `"lin_oauth_FAKE0123456789"`, `"disabled": true`} {
		if !strings.Contains(b, want) {
			t.Errorf("missing %s in\n%s", want, b)
		}
	}
}

func TestRefusesWhatClineCannotHold(t *testing.T) {
	e := tt.NewEntry(false)
	e.EnabledTools = []string{"read"}
	if _, err := New().Render(e); err == nil || !strings.Contains(err.Error(), "tool allow or deny lists") {
		t.Fatalf("got %v", err)
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "cline/home/.cline/data/settings/cline_mcp_settings.json")
}

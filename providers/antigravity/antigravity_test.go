package antigravity

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
	userFile    = "/.gemini/config/mcp_config.json"
	projectFile = "api-server/.agents/mcp_config.json"
)

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	tt.ReadCheck(t, p, env, provider.ScopeUser, userFile, []tt.Want{
		{Name: "firebase", Transport: "stdio", Command: "npx", Args: []string{"-y", "firebase-tools@latest", "mcp"}, Enabled: true},
		// Antigravity expands no references: "$GOOGLE_CLOUD_PROJECT" is text.
		{Name: "google-developer-knowledge", Transport: "http", URL: "https://developerknowledge.googleapis.com/mcp",
			Headers: map[string]string{"X-goog-user-project": "$GOOGLE_CLOUD_PROJECT"}, Enabled: true},
		{Name: "gtfs-feed", Transport: "http", URL: "https://feeds.example/mcp/sse",
			Headers: map[string]string{"Authorization": "Bearer $${GTFS_FEED_TOKEN}"}, Enabled: true, DisabledTools: []string{"publish_feed"}},
		{Name: "harbour-db", Transport: "stdio", Command: "./bin/harbour-mcp", Args: []string{"--read-only"},
			Env: map[string]string{"PGPORT": "5432", "PGPASSWORD": "sk-test-FAKE0123456789"}, Enabled: true},
		{Name: "legacy-planner", Transport: "stdio", Command: "./bin/planner-mcp"},
	})
	tt.ReadCheck(t, p, env, provider.ScopeProject, projectFile, []tt.Want{
		{Name: "cua-driver", Transport: "stdio", Command: env.Home + "/.local/bin/cua-driver", Args: []string{"mcp"}, Enabled: true},
	})
	dirs := p.SkillDirs(env)
	if len(dirs) != 2 || dirs[0].Dir != env.Home+"/.gemini/antigravity-cli/skills" || dirs[1].Dir != env.Projects[0]+"/.agents/skills" {
		t.Fatalf("skill dirs %+v", dirs)
	}
}

// TestReadShapes: serverUrl wins over command, url with type sse is SSE,
// and a server with no connection field is legal.
func TestReadShapes(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, userFile)
	tt.WriteFile(t, loc.File, `{"mcpServers": {
  "both": {"command": "x", "serverUrl": "https://a.example/mcp"},
  "old-sse": {"url": "https://b.example/sse", "type": "sse"},
  "plain-url": {"url": "https://c.example/mcp"},
  "bare": {}
}}`)
	tt.ReadCheck(t, p, env, provider.ScopeUser, userFile, []tt.Want{
		{Name: "both", Transport: "http", URL: "https://a.example/mcp", Enabled: true},
		{Name: "old-sse", Transport: "sse", URL: "https://b.example/sse", Enabled: true},
		{Name: "plain-url", Transport: "http", URL: "https://c.example/mcp", Enabled: true},
		{Name: "bare", Transport: "stdio", Enabled: true},
	})
}

func TestWrites(t *testing.T) {
	e := tt.NewEntry(false)
	e.DisabledTools = []string{"delete_everything"}
	tt.Writes(t, New(), provider.ScopeUser, userFile, e)
	e.Enabled = false
	tt.Writes(t, New(), provider.ScopeProject, projectFile, e)
	for _, transport := range []string{service.HTTP, service.SSE} {
		remote := provider.Entry{Name: "remote", Enabled: true, Definition: service.Definition{Transport: transport,
			URL: secret.Literal("https://mcp.example.com/mcp"), Headers: map[string]secret.Value{"X-Team": secret.Literal("docs")}}}
		tt.Writes(t, New(), provider.ScopeUser, userFile, remote)
	}
}

func TestWritesShapes(t *testing.T) {
	p := New()
	for _, tc := range []struct {
		transport string
		want      string
	}{
		{service.HTTP, `{"serverUrl":"https://x.example/mcp"}`},
		{service.SSE, `{"type":"sse","url":"https://x.example/mcp"}`},
	} {
		b, err := p.Render(provider.Entry{Name: "x", Enabled: true, Definition: service.Definition{Transport: tc.transport, URL: secret.Literal("https://x.example/mcp")}})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(strings.Fields(string(b)), ""); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.transport, got, tc.want)
		}
	}
}

func TestReplace(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, userFile)
	entries, _ := pt.Read(p, loc)
	knowledge, feed := entries[1], entries[2]
	knowledge.URL = secret.Literal("https://developerknowledge.googleapis.com/v2/mcp")
	tt.Replace(t, p, loc, knowledge) // keeps authProviderType and oauth, which chronicle does not model
	feed.DisabledTools = nil
	feed.Enabled = false
	tt.Replace(t, p, loc, feed)
	b := string(tt.ReadFile(t, loc.File))
	for _, want := range []string{`"authProviderType": "google_credentials"`, `"https://www.googleapis.com/auth/cloud-platform"`,
		`"serverUrl": "https://developerknowledge.googleapis.com/v2/mcp"`, `"disabled": true`} {
		if !strings.Contains(b, want) {
			t.Errorf("missing %s:\n%s", want, b)
		}
	}
	if strings.Contains(b, "publish_feed") {
		t.Errorf("disabledTools kept:\n%s", b)
	}
}

// TestSecretsRefused: Antigravity expands no references, so a secret, an
// allow list and a working directory cannot be written.
func TestSecretsRefused(t *testing.T) {
	p := New()
	for what, e := range map[string]provider.Entry{
		"secret":    tt.NewEntry(true),
		"allowlist": func() provider.Entry { e := tt.NewEntry(false); e.EnabledTools = []string{"a"}; return e }(),
		"cwd":       func() provider.Entry { e := tt.NewEntry(false); e.Cwd = "/srv"; return e }(),
	} {
		if _, err := p.Render(e); err == nil {
			t.Errorf("%s: rendered, want an error", what)
		}
	}
	_, err := p.Render(tt.NewEntry(true))
	if err == nil || !strings.Contains(err.Error(), "antigravity has no syntax for secret references") {
		t.Fatalf("got %v", err)
	}
}

func FuzzRead(f *testing.F) {
	tt.Fuzz(f, New(), "antigravity/home/.gemini/config/mcp_config.json", "antigravity/project/.agents/mcp_config.json")
}

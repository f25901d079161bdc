package codex

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

func TestReadFixtures(t *testing.T) {
	tests := []struct {
		scope string
		want  []provider.Entry
	}{
		{"home", []provider.Entry{
			{
				Name: "chronova",
				Definition: service.Definition{Transport: service.Stdio, Command: "npx", Args: []secret.Value{lit("-y"), lit("@chronova/mcp-server")}, Env: map[string]secret.Value{
					"CHRONOVA_API_KEY": lit("sk-test-FAKE0123456789"),
					"CHRONOVA_API_URL": lit("https://chronova.dev/api/v1"),
				}},
				Enabled:      true,
				EnabledTools: []string{"get_productivity_summary", "get_recent_activity", "get_ai_insights"},
				Timeout:      45 * time.Second,
				Extra:        provider.Extra{"startup_timeout_sec": int64(20)},
			},
			{
				Name: "postgres",
				Definition: service.Definition{Transport: service.Stdio, Command: "uvx", Args: []secret.Value{lit("postgres-mcp"), lit("--access-mode=restricted")}, Cwd: "/home/dev/work/api-server", Env: map[string]secret.Value{
					"PGPASSWORD":   ref("PGPASSWORD"),
					"DATABASE_URI": lit("postgresql://app:FAKEpassw0rd@localhost:5432/app_dev"),
				}},
				Enabled: true,
			},
			{
				Name: "github",
				Definition: service.Definition{Transport: service.HTTP, URL: lit("https://api.githubcopilot.com/mcp/"), Headers: map[string]secret.Value{
					"Authorization":  bearer("GITHUB_PAT"),
					"X-MCP-Toolsets": lit("repos,issues"),
					"X-Org":          ref("GITHUB_ORG"),
				}},
				Enabled:       true,
				DisabledTools: []string{"delete_repository"},
			},
			{
				Name:       "sentry",
				Definition: service.Definition{Transport: service.HTTP, URL: lit("https://mcp.sentry.dev/mcp")},
				Enabled:    false,
				Extra:      provider.Extra{"startup_timeout_sec": 10.5},
			},
		}},
		{"project", []provider.Entry{{
			Name:       "chronova-remote",
			Definition: service.Definition{Transport: service.HTTP, URL: lit("http://localhost:3001/mcp"), Headers: map[string]secret.Value{"Authorization": bearer("CHRONOVA_API_KEY")}},
			Enabled:    true,
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.scope, func(t *testing.T) {
			_, loc := home(t, fixture(t, tt.scope))
			got, err := pt.Read(New(), loc)
			if err != nil {
				t.Fatal(err)
			}
			if d := entryDiff(tt.want, got); d != "" {
				t.Errorf("Read (-want +got):\n%s", d)
			}
			if got[0].EnabledTools == nil && tt.want[0].EnabledTools != nil {
				t.Error("enabled_tools read as nil")
			}
		})
	}
}

func TestCanonicalIgnoresLayout(t *testing.T) {
	inline := "[mcp_servers.s]\ncommand = \"x\"\nenv = { B = \"2\", A = \"1\" }\nstartup_timeout_sec = 20\n"
	split := "# same server, other layout\n[mcp_servers]\n\n[mcp_servers.s]\nstartup_timeout_sec = 20\ncommand = \"x\"\n\n[mcp_servers.s.env]\nA = \"1\"\nB = \"2\"\n"
	var canon []string
	for _, doc := range []string{inline, split} {
		_, loc := home(t, []byte(doc))
		entries, err := pt.Read(New(), loc)
		if err != nil {
			t.Fatal(err)
		}
		canon = append(canon, string(entries[0].Canonical))
	}
	want := `{"command":"x","env":{"A":"1","B":"2"},"startup_timeout_sec":20}`
	if canon[0] != want || canon[1] != want {
		t.Errorf("Canonical = %s and %s, want %s", canon[0], canon[1], want)
	}
}

func TestReadMissingFile(t *testing.T) {
	_, loc := home(t, nil)
	if _, err := pt.Read(New(), loc); !errors.Is(err, provider.ErrNotConfigured) {
		t.Errorf("err = %v, want ErrNotConfigured", err)
	}
}

func TestReadRefusesWhatCodexWouldRefuse(t *testing.T) {
	tests := []struct {
		name, doc string
		line      int
		mention   string
	}{
		{"syntax", "model = \"o3\"\n[mcp_servers.x]\ncommand = [\n", 3, ""},
		{"args type", "a = 1\n\n[mcp_servers.x]\ncommand = \"x\"\nargs = \"-y\"\n", 3, "args"},
		{"no command or url", "[mcp_servers.x]\nenabled = true\n", 1, "neither command nor url"},
		{"env_vars name", "[mcp_servers.x]\ncommand = \"x\"\nenv_vars = [\"NOT-A-NAME\"]\n", 1, "env_vars"},
		{"timeout", "[mcp_servers.x]\ncommand = \"x\"\ntool_timeout_sec = \"45\"\n", 1, "tool_timeout_sec"},
		{"server is a string", "[mcp_servers]\nx = \"npx\"\n", 2, "not a table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, loc := home(t, []byte(tt.doc))
			_, err := pt.Read(New(), loc)
			var pe *provider.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *provider.ParseError", err)
			}
			if pe.File != loc.File || pe.Line != tt.line || !strings.Contains(pe.Error(), tt.mention) {
				t.Errorf("err = %v, want line %d mentioning %q", err, tt.line, tt.mention)
			}
		})
	}
}

func TestCodexHomeIsHonoured(t *testing.T) {
	dir := t.TempDir()
	custom := filepath.Join(dir, "elsewhere")
	env := provider.Env{Home: dir, Projects: []string{filepath.Join(dir, "work", "api")}, Getenv: func(k string) (string, bool) {
		if k == "CODEX_HOME" {
			return custom, true
		}
		return "", false
	}}
	locs := New().Locations(env)
	want := []provider.Location{
		{Tool: "codex", Scope: provider.ScopeUser, File: filepath.Join(custom, "config.toml"), KeyPath: []string{"mcp_servers"}},
		{Tool: "codex", Scope: provider.ScopeProject, Project: env.Projects[0], File: filepath.Join(env.Projects[0], ".codex", "config.toml"), KeyPath: []string{"mcp_servers"}},
	}
	if d := entryDiff(want, locs); d != "" {
		t.Errorf("Locations (-want +got):\n%s", d)
	}
	writeFile(t, locs[0].File, fixture(t, "project"))
	entries, err := pt.Read(New(), locs[0])
	if err != nil || len(entries) != 1 || entries[0].Name != "chronova-remote" {
		t.Errorf("Read under CODEX_HOME = %v, %v", entries, err)
	}
}

func TestSkillDirs(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, "work", "api")
	env := provider.Env{Home: dir, Projects: []string{project}}
	shared := provider.SkillDir{Tool: "codex", Scope: provider.ScopeUser, Dir: filepath.Join(dir, ".agents", "skills"), SharedWith: []string{"agents"}}
	inProject := provider.SkillDir{Tool: "codex", Scope: provider.ScopeProject, Project: project, Dir: filepath.Join(project, ".agents", "skills"), SharedWith: []string{"agents"}}
	if d := entryDiff([]provider.SkillDir{shared, inProject}, New().SkillDirs(env)); d != "" {
		t.Errorf("without legacy folder (-want +got):\n%s", d)
	}
	legacy := filepath.Join(dir, ".codex", "skills")
	writeFile(t, filepath.Join(legacy, "review", "SKILL.md"), []byte("---\nname: review\n---\n"))
	want := []provider.SkillDir{shared, {Tool: "codex", Scope: provider.ScopeUser, Dir: legacy}, inProject}
	if d := entryDiff(want, New().SkillDirs(env)); d != "" {
		t.Errorf("with legacy folder (-want +got):\n%s", d)
	}
}

// TestReadRefusesDeepNesting: a config.toml nested thousands of levels deep
// is a parse error naming the file and the place, read and written alike.
func TestReadRefusesDeepNesting(t *testing.T) {
	deep := []byte("[mcp_servers.x]\ncommand = \"x\"\nargs = " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n")
	_, loc := home(t, deep)
	_, err := pt.Read(New(), loc)
	var pe *provider.ParseError
	if !errors.As(err, &pe) || pe.File != loc.File || pe.Line != 3 || !strings.Contains(err.Error(), "nested deeper than 512 levels") {
		t.Fatalf("Read: %v", err)
	}
	if err := pt.Put(New(), loc, provider.Entry{Name: "y", Definition: service.Definition{Command: "y"}}); !errors.As(err, &pe) {
		t.Fatalf("Put into a file nested too deeply: %v", err)
	}
	if got := readFile(t, loc.File); string(got) != string(deep) {
		t.Fatal("a refused Put changed the file")
	}
}

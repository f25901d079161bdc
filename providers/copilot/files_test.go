package copilot

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

// Copilot CLI's project servers are written to .github/mcp.json only: a
// project's .mcp.json is Claude Code's file (which Copilot reads too, and
// scan says so there), and VS Code's .vscode/mcp.json is never Copilot's
// (github/docs add-mcp-servers.md: "not read by Copilot CLI").
func TestProjectFiles(t *testing.T) {
	env := tt.Home(t)
	var project []string
	for _, loc := range New().Locations(env) {
		if strings.Contains(loc.File, ".vscode") || strings.HasSuffix(loc.File, "/.mcp.json") {
			t.Errorf("copilot lists %s", loc.File)
		}
		if loc.Scope == provider.ScopeProject {
			project = append(project, strings.TrimPrefix(loc.File, env.Projects[0]))
		}
	}
	if strings.Join(project, " ") != "/.github/mcp.json" {
		t.Fatalf("project files %q", project)
	}
}

// "tools" is written in every entry, ["*"] when there is no allow list:
// the form Copilot CLI's own /mcp add writes (its default is *) and the
// one its page shows in every example of mcp-config.json.
func TestToolsAlwaysWritten(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeProject, projectFile)
	e := tt.NewEntry(false)
	e.Name = "fresh"
	if err := pt.Put(p, loc, e); err != nil {
		t.Fatal(err)
	}
	b := string(tt.ReadFile(t, loc.File))
	at := strings.Index(b, `"fresh"`)
	if at < 0 || !strings.Contains(b[at:], `"tools": [`) || !strings.Contains(b[at:], `"*"`) {
		t.Fatalf("no tools [\"*\"] in the entry written:\n%s", b)
	}
	e.EnabledTools = []string{"search"}
	if r, err := p.Render(e); err != nil || !strings.Contains(string(r), `"search"`) {
		t.Fatalf("an allow list is written as tools: %s, %v", r, err)
	}
}

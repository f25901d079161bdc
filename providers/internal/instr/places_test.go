package instr

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// TestTablePlaces: user rows under the tool's folder (or home, with ~/),
// then every project's rows in order, each path joined for the system.
func TestTablePlaces(t *testing.T) {
	home, user := filepath.FromSlash("/h"), filepath.FromSlash("/h/.tool")
	a, b := filepath.FromSlash("/p/a"), filepath.FromSlash("/p/b")
	tab := Table{
		Tool: "tool",
		User: []Row{
			{Kind: instruction.Rule, Files: []string{"RULES.md"}, Format: Root{}, Source: "doc"},
			{Kind: instruction.Agent, Dir: "~/.agents/agents", Ext: ".md", Source: "doc"},
		},
		Project: []Row{
			{Kind: instruction.Rule, Files: []string{"RULES.md", ".tool/RULES.md"}, Import: "AGENTS.md", ImportLine: "@AGENTS.md"},
			{Kind: instruction.Agent, Dir: ".tool/agents", File: "AGENT.md"},
		},
	}
	got := tab.Places(provider.Env{Home: home, Projects: []string{a, b}}, user)
	want := []provider.Place{
		{Tool: "tool", Kind: instruction.Rule, Scope: provider.ScopeUser, Files: []string{filepath.Join(user, "RULES.md")}, Format: Root{}, Source: "doc"},
		{Tool: "tool", Kind: instruction.Agent, Scope: provider.ScopeUser, Dir: filepath.Join(home, ".agents", "agents"), Ext: ".md", Source: "doc"},
	}
	for _, p := range []string{a, b} {
		want = append(want,
			provider.Place{Tool: "tool", Kind: instruction.Rule, Scope: provider.ScopeProject, Project: p,
				Files:  []string{filepath.Join(p, "RULES.md"), filepath.Join(p, ".tool", "RULES.md")},
				Import: &provider.Import{File: filepath.Join(p, "AGENTS.md"), Line: "@AGENTS.md"}},
			provider.Place{Tool: "tool", Kind: instruction.Agent, Scope: provider.ScopeProject, Project: p, Dir: filepath.Join(p, ".tool", "agents"), File: "AGENT.md"})
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("places:\n got %+v\nwant %+v", got, want)
	}
	if got := (Table{Tool: "tool", Project: tab.Project}).Places(provider.Env{Home: home}, ""); len(got) != 0 {
		t.Fatalf("no projects, no user rows: %+v", got)
	}
}

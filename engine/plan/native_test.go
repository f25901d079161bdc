package plan_test

import (
	"os"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// claudeRule links one rule to Claude Code alone in each project given,
// with claude_import set for those in imports.
func claudeRule(projects []string, imports map[string]bool) string {
	text := `rule "style" {
  content = "Use gofmt."
}
`
	for i, p := range projects {
		text += "link \"p" + string(rune('a'+i)) + "\" {\n  tools = [\"claude\"]\n  project = \"" + p + "\"\n  rules = [\"style\"]\n"
		if imports[p] {
			text += "  claude_import = true\n"
		}
		text += "}\n"
	}
	return text
}

// blockFiles lists the files the plan's block changes write, with the
// addresses: path → the change's address.
func blockFiles(p *plan.Plan) map[string]string {
	out := map[string]string{}
	for _, c := range p.Changes {
		if c.Kind == plan.KindBlock && c.Action != plan.Read {
			out[c.Path] = c.Address
		}
	}
	return out
}

// Where Claude Code reads AGENTS.md itself (no CLAUDE.md, .claude/CLAUDE.md
// or CLAUDE.local.md in the project or above it; the user's memory
// ~/.claude/CLAUDE.md aside), a rule for Claude Code alone goes into the
// project's AGENTS.md and no CLAUDE.md is planned; where one is found, the
// rule goes into the project's CLAUDE.md as before.
func TestClaudeRulesGoWhereClaudeCodeReads(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string // written before the plan, under the home
		keep  bool
		want  string // the file the rule goes to, under the home
	}{
		{name: "no CLAUDE.md anywhere", want: "work/api/AGENTS.md"},
		{name: "the user's memory does not count", files: []string{".claude/CLAUDE.md"}, want: "work/api/AGENTS.md"},
		{name: "CLAUDE.md in the project", files: []string{"work/api/CLAUDE.md"}, want: "work/api/CLAUDE.md"},
		{name: ".claude/CLAUDE.md in the project", files: []string{"work/api/.claude/CLAUDE.md"}, want: "work/api/CLAUDE.md"},
		{name: "CLAUDE.local.md in the project", files: []string{"work/api/CLAUDE.local.md"}, want: "work/api/CLAUDE.md"},
		{name: "CLAUDE.md in a folder above", files: []string{"work/CLAUDE.md"}, want: "work/api/CLAUDE.md"},
		{name: "CLAUDE.md in the home folder", files: []string{"CLAUDE.md"}, want: "work/api/CLAUDE.md"},
		{name: "claude_import", keep: true, want: "work/api/CLAUDE.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := enginetest.New(t)
			project := m.Path("work/api")
			if err := os.MkdirAll(project, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range tc.files {
				m.Write(f, "# Notes\n")
			}
			p := m.Plan(m.Config(claudeRule([]string{project}, map[string]bool{project: tc.keep})))
			got := blockFiles(p)
			if len(got) != 1 || got[m.Path(tc.want)] != `link.pa["claude"].rule.style` {
				t.Fatalf("blocks planned in %v, want only %s:\n%s", got, tc.want, enginetest.Describe(p))
			}
			noted := strings.Contains(enginetest.Describe(p), "Claude Code 2.1.277 and later reads")
			if noted != (tc.want == "work/api/AGENTS.md") {
				t.Fatalf("note of the native read: %v\n%s", noted, enginetest.Describe(p))
			}
		})
	}
}

// A CLAUDE.md chronicle keeps in a folder above (a project of its own with
// claude_import) switches the native read off below it: the project below
// keeps its own CLAUDE.md too, since Claude Code there would not read its
// AGENTS.md.
func TestClaudeImportAboveSwitchesNativeOff(t *testing.T) {
	m := enginetest.New(t)
	outer, inner := m.Path("work"), m.Path("work/api")
	if err := os.MkdirAll(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	p := m.Plan(m.Config(claudeRule([]string{inner, outer}, map[string]bool{outer: true})))
	got := blockFiles(p)
	if got[m.Path("work/CLAUDE.md")] == "" || got[m.Path("work/api/CLAUDE.md")] == "" || len(got) != 2 {
		t.Fatalf("blocks planned in %v:\n%s", got, enginetest.Describe(p))
	}
}

// A CLAUDE.md that holds the user's text besides chronicle's blocks stays,
// and so does what chronicle keeps in it: Claude Code reads it.
func TestClaudeMdWithUserTextKeepsBlocks(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	m.Converge(m.Config(claudeRule([]string{project}, map[string]bool{project: true})))
	claudeMd := m.Path("work/api/CLAUDE.md")
	m.Write("work/api/CLAUDE.md", m.Read(claudeMd)+"\nMy own line.\n")
	p := m.Plan(m.Config(claudeRule([]string{project}, nil)))
	if p.HasChanges() {
		t.Fatalf("a CLAUDE.md with the user's text changed:\n%s", enginetest.Describe(p))
	}
}

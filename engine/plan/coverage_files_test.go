package plan_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// fileConfig links a rule to VS Code and the Copilot CLI at user level
// (both read ~/.copilot/instructions) and to Cursor at user level (which
// keeps no rule files there), and a command with $ARGUMENTS to Cursor and
// Claude Code.
func fileConfig(linkName, rule string) string {
	return fmt.Sprintf(`
rule "go-style" {
  content     = %q
  description = "How we write Go"
}
command "review" {
  content = "Review $ARGUMENTS."
}
link %q {
  tools    = ["vscode", "copilot", "cursor", "claude"]
  rules    = ["go-style"]
  commands = ["review"]
}
`, rule, linkName)
}

// TestRuleFilesLifecycle: a rule is a file of its own where the tool keeps
// one per rule. chronicle owns the file whole: a file of that name it did
// not write is a conflict (with the diff) until --replace; an edit since
// chronicle wrote it is drift; a renamed link takes the file over; when the
// rule goes, the file goes.
func TestRuleFilesLifecycle(t *testing.T) {
	m := enginetest.New(t)
	ruleFile := m.Write(".copilot/instructions/go-style.instructions.md", "My own rule.\n")
	cfg := m.Config(fileConfig("u", "Use gofmt."))
	p := m.Plan(cfg)
	if errs := p.Errors(); len(errs) > 0 {
		t.Fatalf("errors: %+v", errs)
	}
	c := enginetest.Change(t, p, `link.u["vscode"].rule.go-style`)
	if c.Action != plan.Conflict || c.Kind != plan.KindFile || !strings.Contains(c.Reason, ruleFile+" is there, but chronicle did not write it") {
		t.Fatalf("a rule file the user wrote: %s %q", c.Action, c.Reason)
	}
	if !strings.Contains(c.Diff, "-My own rule.") || !strings.Contains(c.Diff, "+Use gofmt.") {
		t.Fatalf("the conflict shows no diff:\n%s", c.Diff)
	}
	// Copilot reads the same folder: the same file, written once.
	if c := enginetest.Change(t, p, `link.u["copilot"].rule.go-style`); c.Action != plan.Read || c.Reason != `the same file as link.u["vscode"].rule.go-style` {
		t.Fatalf("the second tool of one folder: %s %q", c.Action, c.Reason)
	}
	// Cursor keeps no user-level rule files, and cannot spell $ARGUMENTS.
	d := enginetest.Describe(p)
	for _, want := range []string{"No rules for cursor", "cursor keeps no rule files at user level", "cursor cannot hold command review", "nothing is written for it there"} {
		if !strings.Contains(d, want) {
			t.Errorf("the plan does not say %q:\n%s", want, d)
		}
	}
	if c := enginetest.Change(t, p, `link.u["claude"].command.review`); c.Action != plan.Create || c.File == nil || !strings.HasSuffix(c.Path, "commands/review.md") {
		t.Fatalf("Claude Code's command: %s %+v", c.Action, c.File)
	}

	// --replace writes the rule; the other tool of the folder reads it.
	p = m.Plan(cfg, `link.u["vscode"].rule.go-style`)
	if c := enginetest.Change(t, p, `link.u["vscode"].rule.go-style`); c.Action != plan.Replace || !strings.Contains(c.Reason, "kept backup set") {
		t.Fatalf("with --replace: %s %q", c.Action, c.Reason)
	}
	m.Converge(cfg, `link.u["vscode"].rule.go-style`)
	if got := m.Read(ruleFile); !strings.Contains(got, "Use gofmt.") || !strings.Contains(got, "How we write Go") {
		t.Fatalf("the rule file:\n%s", got)
	}

	// An edit since chronicle wrote it is drift, never overwritten.
	m.Write(".copilot/instructions/go-style.instructions.md", m.Read(ruleFile)+"my addition\n")
	c = enginetest.Change(t, m.Plan(cfg), `link.u["vscode"].rule.go-style`)
	if c.Action != plan.Conflict || !strings.Contains(c.Reason, "edited since chronicle wrote it") || !strings.Contains(c.Diff, "-my addition") {
		t.Fatalf("an edited rule file: %s %q\n%s", c.Action, c.Reason, c.Diff)
	}
	m.Converge(cfg, `link.u["vscode"].rule.go-style`)

	// The link is renamed: the new address takes the file over, unchanged.
	cfg = m.Config(fileConfig("home", "Use gofmt."))
	p = m.Plan(cfg)
	c = enginetest.Change(t, p, `link.home["vscode"].rule.go-style`)
	if c.File == nil || c.File.Takeover != `link.u["vscode"].rule.go-style` {
		t.Fatalf("a renamed link: %s %q %+v\n%s", c.Action, c.Reason, c.File, enginetest.Describe(p))
	}
	if p.Has(`link.u["vscode"].rule.go-style`) {
		t.Fatalf("the old address is removed while the new one writes the file:\n%s", enginetest.Describe(p))
	}
	m.Converge(cfg)

	// The rule goes: its file goes; a file chronicle wrote and the user
	// replaced by a folder is left as a conflict.
	if err := os.Remove(m.Path(".claude/commands/review.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(m.Path(".claude/commands/review.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg = m.Config(`
rule "go-style" { content = "Use gofmt." }
`)
	p = m.Plan(cfg)
	c = enginetest.Change(t, p, `link.home["vscode"].rule.go-style`)
	if c.Action != plan.Delete || c.Path != ruleFile {
		t.Fatalf("a rule no longer linked: %s %s %q", c.Action, c.Path, c.Reason)
	}
	c = enginetest.Change(t, p, `link.home["claude"].command.review`)
	if c.Action != plan.Conflict || !strings.Contains(c.Reason, "a real directory is at "+m.Path(".claude/commands/review.md")) {
		t.Fatalf("a folder where chronicle's command file was: %s %q", c.Action, c.Reason)
	}
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ruleFile); !os.IsNotExist(err) {
		t.Fatalf("the rule file is still there: %v", err)
	}
	if info, err := os.Stat(m.Path(".claude/commands/review.md")); err != nil || !info.IsDir() {
		t.Fatalf("the user's folder went: %v", err)
	}
}

// TestRuleFilesOfAMissingProjectStay: a link whose project folder is not
// on this machine keeps what chronicle wrote for it elsewhere: nothing of
// it is removed for that reason.
func TestRuleFilesOfAMissingProjectStay(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := m.Config(fmt.Sprintf(`
rule "go-style" { content = "Use gofmt." }
link "p" {
  tools   = ["cursor", "codex"]
  project = %q
  rules   = ["go-style"]
}
`, project))
	m.Converge(cfg)
	rule := m.Path("work/api/.cursor/rules/go-style.mdc")
	if !strings.Contains(m.Read(rule), "Use gofmt.") {
		t.Fatalf("the rule file: %q", m.Read(rule))
	}
	// The project is moved away (another machine's checkout): the plan
	// removes nothing of the link.
	if err := os.Rename(project, m.Path("work/moved")); err != nil {
		t.Fatal(err)
	}
	p := m.Plan(cfg)
	for _, c := range p.Changes {
		if c.Action == plan.Delete {
			t.Fatalf("a missing project's item is removed:\n%s", enginetest.Describe(p))
		}
	}
}

package plan_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// userNotes is the user's own text in a shared instruction file: it must
// come through every step byte-identical.
const userNotes = "# My own notes\n\nKeep answers short.\n"

// blockConfig links the rules to Claude Code and Codex at user level, and
// to the AGENTS.md convention and Claude Code in project (whose CLAUDE.md
// imports AGENTS.md instead of holding a copy).
func blockConfig(project, rules string) string {
	return fmt.Sprintf(`
rule "go-style" {
  content = %q
}
rule "tests" {
  content = "Write table tests."
}
link "home" {
  tools = ["claude", "codex"]
  rules = [%s]
}
link "one" {
  tools         = ["agents", "claude"]
  project       = %q
  rules         = [%s]
  claude_import = true # Claude Code builds that do not read AGENTS.md (decision 0150)
}
`, "Use gofmt.", rules, project, rules)
}

// TestRuleBlocksLifecycle: a rule is a marked block in the files the tools
// share with the user; the user's text around it never changes; an edit
// inside the block is drift, shown with its diff; a project's CLAUDE.md
// imports AGENTS.md; when the rules go, exactly their blocks go, and a
// file chronicle created only for them goes too.
func TestRuleBlocksLifecycle(t *testing.T) {
	m := enginetest.New(t)
	claude := m.Write(".claude/CLAUDE.md", userNotes)
	codex := m.Write(".codex/AGENTS.md", userNotes)
	project := m.Path("work/one")
	agents := m.Write("work/one/AGENTS.md", userNotes)
	cfg := m.Config(blockConfig(project, `"*"`))

	p := m.Plan(cfg)
	if errs := p.Errors(); len(errs) > 0 {
		t.Fatalf("errors: %+v", errs)
	}
	for _, addr := range []string{`link.home["claude"].rule.go-style`, `link.home["codex"].rule.tests`, `link.one["agents"].rule.go-style`} {
		c := enginetest.Change(t, p, addr)
		if c.Action != plan.Create || c.Kind != plan.KindBlock || c.Block == nil {
			t.Errorf("%s: %s %s %+v", addr, c.Action, c.Kind, c.Block)
		}
	}
	// With claude_import, Claude Code's project CLAUDE.md carries one
	// import block instead of copies of AGENTS.md's blocks.
	imp := enginetest.Change(t, p, `link.one["claude"].rule.go-style`)
	if imp.Action != plan.Create || imp.Block == nil || imp.Block.ID != "import.agents-md" || imp.Block.Body != "@AGENTS.md\n" {
		t.Fatalf("the project CLAUDE.md: %s %+v", imp.Action, imp.Block)
	}
	m.Converge(cfg)
	for _, f := range []string{claude, codex, agents} {
		got := m.Read(f)
		if !strings.HasPrefix(got, userNotes) || !strings.Contains(got, "Use gofmt.") || !strings.Contains(got, "Write table tests.") {
			t.Errorf("%s after apply:\n%s", f, got)
		}
	}
	projectClaude := m.Path("work/one/CLAUDE.md")
	if got := m.Read(projectClaude); !strings.Contains(got, "@AGENTS.md") || strings.Contains(got, "Use gofmt.") {
		t.Fatalf("the project CLAUDE.md imports AGENTS.md, no copy:\n%s", got)
	}

	// The user adds text after the blocks: theirs, nothing to do.
	m.Write(".codex/AGENTS.md", m.Read(codex)+"\nMore of mine.\n")
	if p := m.Plan(cfg); p.HasChanges() {
		t.Fatalf("text after the blocks is the user's:\n%s", enginetest.Describe(p))
	}

	// The rule changes: the block is rewritten, with a diff of its body.
	cfg = m.Config(strings.Replace(blockConfig(project, `"*"`), "Use gofmt.", "Use gofumpt.", 1))
	c := enginetest.Change(t, m.Plan(cfg), `link.home["codex"].rule.go-style`)
	if c.Action != plan.Update || !strings.Contains(c.Diff, "-Use gofmt.") || !strings.Contains(c.Diff, "+Use gofumpt.") {
		t.Fatalf("a changed rule: %s %q\n%s", c.Action, c.Reason, c.Diff)
	}
	m.Converge(cfg)
	if got := m.Read(codex); !strings.Contains(got, "Use gofumpt.") || !strings.HasSuffix(got, "More of mine.\n") {
		t.Fatalf("after the update:\n%s", got)
	}

	// An edit inside a block is drift: a conflict with the diff; --replace
	// writes the declared text back.
	drifted := strings.Replace(m.Read(codex), "Use gofumpt.", "Use gofumpt, always.", 1)
	m.Write(".codex/AGENTS.md", drifted)
	c = enginetest.Change(t, m.Plan(cfg), `link.home["codex"].rule.go-style`)
	if c.Action != plan.Conflict || !strings.Contains(c.Reason, "edited since chronicle wrote it") || !strings.Contains(c.Diff, "-Use gofumpt, always.") {
		t.Fatalf("an edited block: %s %q\n%s", c.Action, c.Reason, c.Diff)
	}
	c = enginetest.Change(t, m.Plan(cfg, `link.home["codex"].rule.go-style`), `link.home["codex"].rule.go-style`)
	if c.Action != plan.Update {
		t.Fatalf("an edited block with --replace: %s %q", c.Action, c.Reason)
	}
	m.Converge(cfg, `link.home["codex"].rule.go-style`)
	if strings.Contains(m.Read(codex), "always") {
		t.Fatalf("--replace kept the edit:\n%s", m.Read(codex))
	}

	// The rules go: their blocks go, the text around them stays, and the
	// project CLAUDE.md chronicle created only for its import goes too.
	cfg = m.Config(blockConfig(project, ""))
	p = m.Plan(cfg)
	c = enginetest.Change(t, p, `link.home["claude"].rule.go-style`)
	if c.Action != plan.Delete || !strings.Contains(c.Reason, "the text around it stays as it is") {
		t.Fatalf("a rule no longer linked: %s %q", c.Action, c.Reason)
	}
	c = enginetest.Change(t, p, `link.one["claude"].rule.go-style`)
	if c.Action != plan.Delete || !strings.Contains(c.Reason, "held nothing else chronicle did not write, so the file goes too") {
		t.Fatalf("the import block: %s %q", c.Action, c.Reason)
	}
	m.Converge(cfg)
	for _, f := range []string{claude, agents} {
		if got := m.Read(f); got != userNotes {
			t.Errorf("%s after the rules went:\n%q", f, got)
		}
	}
	if got := m.Read(codex); got != userNotes+"\nMore of mine.\n" {
		t.Errorf("%s after the rules went:\n%q", codex, got)
	}
	if _, err := os.Stat(projectClaude); !os.IsNotExist(err) {
		t.Errorf("the CLAUDE.md chronicle created is still there: %v", err)
	}
}

// TestRuleBlockOfTheSameIDNotWritten: a block of the rule's id that
// chronicle did not write is a conflict; a file whose markers do not pair
// up is an error naming the file and line, and neither file changes.
func TestRuleBlockOfTheSameIDNotWritten(t *testing.T) {
	m := enginetest.New(t)
	mine := "Mine.\n\n<!-- chronicle:begin rule.go-style -->\nMy own copy.\n<!-- chronicle:end rule.go-style -->\n"
	gemini := m.Write(".gemini/GEMINI.md", mine)
	broken := "Mine.\n\n<!-- chronicle:begin rule.go-style -->\nno end\n"
	codex := m.Write(".codex/AGENTS.md", broken)
	cfg := m.Config(`
rule "go-style" { content = "Use gofmt." }
link "home" {
  tools = ["gemini", "codex"]
  rules = ["go-style"]
}
`)
	p := m.Plan(cfg)
	c := enginetest.Change(t, p, `link.home["gemini"].rule.go-style`)
	if c.Action != plan.Conflict || !strings.Contains(c.Reason, "block rule.go-style in "+gemini) || !strings.Contains(c.Reason, "chronicle did not write it") {
		t.Fatalf("a block chronicle did not write: %s %q", c.Action, c.Reason)
	}
	if !strings.Contains(c.Diff, "-My own copy.") || !strings.Contains(c.Diff, "+Use gofmt.") {
		t.Fatalf("the conflict shows no diff:\n%s", c.Diff)
	}
	var found bool
	for _, d := range p.Errors() {
		if d.Address == `link.home["codex"].rule.go-style` && d.Summary == "Cannot edit AGENTS.md" &&
			strings.Contains(d.Detail, codex+":3") && strings.Contains(d.Detail, "has no chronicle:end") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no error naming %s and its line:\n%s", codex, enginetest.Describe(p))
	}
	if p.Has(`link.home["codex"].rule.go-style`) {
		t.Fatalf("a file that cannot be parsed got a change:\n%s", enginetest.Describe(p))
	}
	if _, err := m.Apply(p); err == nil || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("apply of a plan with an error: %v", err)
	}
	if m.Read(gemini) != mine || m.Read(codex) != broken {
		t.Fatalf("apply changed a file it could not plan:\n%s\n%s", m.Read(gemini), m.Read(codex))
	}
}

// TestRuleBlockInAFileChronicleCannotWriteAsItWrites: a read-only file, or
// one hard-linked elsewhere, is a conflict saying why (chronicle replaces
// files atomically); --replace writes a read-only file and keeps its mode.
func TestRuleBlockInAFileChronicleCannotWriteAsItWrites(t *testing.T) {
	m := enginetest.New(t)
	codex := m.Write(".codex/AGENTS.md", userNotes)
	if err := os.Chmod(codex, 0o444); err != nil {
		t.Fatal(err)
	}
	gemini := m.Write(".gemini/GEMINI.md", userNotes)
	if err := os.Link(gemini, m.Path("GEMINI-copy.md")); err != nil {
		t.Fatal(err)
	}
	cfg := m.Config(`
rule "go-style" { content = "Use gofmt." }
link "home" {
  tools = ["codex", "gemini"]
  rules = ["go-style"]
}
`)
	p := m.Plan(cfg)
	c := enginetest.Change(t, p, `link.home["codex"].rule.go-style`)
	if c.Action != plan.Conflict || !strings.Contains(c.Reason, codex+" is read-only (mode 0444)") || !strings.Contains(c.Reason, "--replace") {
		t.Fatalf("a read-only file: %s %q", c.Action, c.Reason)
	}
	c = enginetest.Change(t, p, `link.home["gemini"].rule.go-style`)
	if c.Action != plan.Conflict || !strings.Contains(c.Reason, gemini+" is hard-linked, 2 links") {
		t.Fatalf("a hard-linked file: %s %q", c.Action, c.Reason)
	}
	c = enginetest.Change(t, m.Plan(cfg, `link.home["codex"].rule.go-style`), `link.home["codex"].rule.go-style`)
	if c.Action != plan.Create {
		t.Fatalf("a read-only file with --replace: %s %q", c.Action, c.Reason)
	}
}

// TestRuleBlockWantedByTwoTools: tools reading one file share one block;
// the second address reads as the same block, and the state records both,
// so the block stays while either still wants it.
func TestRuleBlockWantedByTwoTools(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/one")
	agents := m.Write("work/one/AGENTS.md", userNotes)
	both := fmt.Sprintf(`
rule "go-style" { content = "Use gofmt." }
link "one" {
  tools   = ["agents", "codex"]
  project = %q
  rules   = ["go-style"]
}
`, project)
	cfg := m.Config(both)
	p := m.Plan(cfg)
	if c := enginetest.Change(t, p, `link.one["agents"].rule.go-style`); c.Action != plan.Create {
		t.Fatalf("the first tool: %s %q", c.Action, c.Reason)
	}
	c := enginetest.Change(t, p, `link.one["codex"].rule.go-style`)
	if c.Action != plan.Read || c.Reason != `the same block rule.go-style as link.one["agents"].rule.go-style` {
		t.Fatalf("the second tool: %s %q", c.Action, c.Reason)
	}
	m.Converge(cfg)

	// One tool leaves the link: the block stays, recorded for the other.
	cfg = m.Config(strings.Replace(both, `["agents", "codex"]`, `["codex"]`, 1))
	p = m.Plan(cfg)
	c = enginetest.Change(t, p, `link.one["codex"].rule.go-style`)
	if c.Action != plan.Update || c.Reason != `recorded as wanted by link.one["codex"].rule.go-style` {
		t.Fatalf("one tool left: %s %q\n%s", c.Action, c.Reason, enginetest.Describe(p))
	}
	m.Converge(cfg)
	if got := m.Read(agents); !strings.Contains(got, "Use gofmt.") {
		t.Fatalf("the block went while a tool still wants it:\n%s", got)
	}
}

// TestRuleBlockImportedByTheUsersOwnText: a project CLAUDE.md whose own
// text imports AGENTS.md already needs no import block.
func TestRuleBlockImportedByTheUsersOwnText(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/one")
	m.Write("work/one/AGENTS.md", userNotes)
	claude := m.Write("work/one/CLAUDE.md", "@AGENTS.md\n\nMore notes.\n")
	cfg := m.Config(fmt.Sprintf(`
rule "go-style" { content = "Use gofmt." }
link "one" {
  tools   = ["agents", "claude"]
  project = %q
  rules   = ["go-style"]
}
`, project))
	p := m.Plan(cfg)
	if p.Has(`link.one["claude"].rule.go-style`) {
		t.Fatalf("the user's CLAUDE.md imports AGENTS.md already:\n%s", enginetest.Describe(p))
	}
	m.Converge(cfg)
	if got := m.Read(claude); got != "@AGENTS.md\n\nMore notes.\n" {
		t.Fatalf("the user's CLAUDE.md changed:\n%s", got)
	}
}

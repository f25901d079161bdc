package apply_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// rulesConfig declares two rules linked to codex and opencode in project
// (both read its AGENTS.md) and, when claude is set, to Claude Code too.
func rulesConfig(project string, rules string, claude bool) string {
	tools := `"codex", "opencode"`
	if claude {
		tools += `, "claude"`
	}
	return `
rule "go-style" {
  content = "Use gofmt.\nName things plainly."
}
rule "tests" {
  content = "Write table tests."
  globs   = ["**/*_test.go"]
}
link "p" {
  tools   = [` + tools + `]
  project = "` + project + `"
  rules   = [` + rules + `]
}
`
}

const handWritten = "# Notes of mine\n\nBe kind to reviewers.\n"

// Two rules go into a hand-written AGENTS.md as one block each, once for
// the two tools that read it; taking them out gives back the file as the
// user wrote it, byte for byte.
func TestBlocksAroundHandWrittenText(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	agents := m.Write("work/api/AGENTS.md", handWritten)
	p := m.Converge(m.Config(rulesConfig(project, `"go-style", "tests"`, false)))
	reads := 0
	for _, c := range p.Changes {
		if c.Action == plan.Read && strings.Contains(c.Reason, "the same block") {
			reads++
		}
	}
	if reads != 2 {
		t.Fatalf("want opencode's two blocks noted as the same as codex's:\n%s", enginetest.Describe(p))
	}
	want := handWritten + "\n<!-- chronicle:begin rule.go-style -->\nUse gofmt.\nName things plainly.\n<!-- chronicle:end rule.go-style -->\n" +
		"\n<!-- chronicle:begin rule.tests -->\nApplies only to files matching `**/*_test.go`.\n\nWrite table tests.\n<!-- chronicle:end rule.tests -->\n"
	if got := m.Read(m.Path("work/api/AGENTS.md")); got != want {
		t.Fatalf("AGENTS.md =\n%s\nwant\n%s", got, want)
	}
	st := m.State()
	if b := st.BlockAt(agents, "rule.go-style"); b == nil || len(b.WantedBy) != 2 || b.Created {
		t.Fatalf("block record = %+v", b)
	}
	m.Converge(m.Config(rulesConfig(project, `"tests"`, false)))
	m.Converge(m.Config(rulesConfig(project, ``, false)))
	if got := m.Read(m.Path("work/api/AGENTS.md")); got != handWritten {
		t.Fatalf("after removing both rules AGENTS.md =\n%q\nwant\n%q", got, handWritten)
	}
	if len(m.State().Blocks) != 0 {
		t.Fatal("blocks still recorded")
	}
}

// With claude_import = true (Claude Code builds that do not read AGENTS.md
// themselves), Claude Code's CLAUDE.md imports the project's AGENTS.md
// instead of a second copy of its blocks; a CLAUDE.md that imports it
// already gets no block at all. A file chronicle created only for its
// blocks goes with the last of them.
func TestClaudeImportsAgentsMd(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write("work/api/AGENTS.md", handWritten)
	imports := func(rules string) string {
		return strings.Replace(rulesConfig(project, rules, true), "  rules   = [", "  claude_import = true\n  rules   = [", 1)
	}
	m.Converge(m.Config(imports(`"go-style", "tests"`)))
	if got := m.Read(m.Path("work/api/CLAUDE.md")); got != "<!-- chronicle:begin import.agents-md -->\n@AGENTS.md\n<!-- chronicle:end import.agents-md -->\n" {
		t.Fatalf("CLAUDE.md = %q", got)
	}
	m.Converge(m.Config(imports(``)))
	if _, err := os.Stat(m.Path("work/api/CLAUDE.md")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("CLAUDE.md, created for the import alone, is still there: %v", err)
	}

	m.Write("work/api/CLAUDE.md", "Read @AGENTS.md first:\n@AGENTS.md\n")
	m.Converge(m.Config(imports(`"go-style"`)))
	if got := m.Read(m.Path("work/api/CLAUDE.md")); got != "Read @AGENTS.md first:\n@AGENTS.md\n" {
		t.Fatalf("a CLAUDE.md importing AGENTS.md itself was changed: %q", got)
	}
}

// Claude Code 2.1.277 reads AGENTS.md in a project with no CLAUDE.md: the
// rules go there only. The CLAUDE.md an earlier chronicle created for the
// import alone is removed by the next apply, its bytes kept in a backup
// set; a CLAUDE.md of the user's keeps the import.
func TestClaudeReadsAgentsMd(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write("work/api/AGENTS.md", handWritten)
	imports := strings.Replace(rulesConfig(project, `"go-style"`, true), "  rules   = [", "  claude_import = true\n  rules   = [", 1)
	m.Converge(m.Config(imports))
	claudeMd := m.Path("work/api/CLAUDE.md")
	created := m.Read(claudeMd)

	p := m.Converge(m.Config(rulesConfig(project, `"go-style"`, true)))
	if _, err := os.Stat(claudeMd); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("CLAUDE.md, created for the import alone, is still there: %v\n%s", err, enginetest.Describe(p))
	}
	if !strings.Contains(enginetest.Describe(p), "Claude Code 2.1.277 and later reads") {
		t.Fatalf("no note on the version that reads AGENTS.md:\n%s", enginetest.Describe(p))
	}
	want := handWritten + "\n<!-- chronicle:begin rule.go-style -->\nUse gofmt.\nName things plainly.\n<!-- chronicle:end rule.go-style -->\n"
	if got := m.Read(m.Path("work/api/AGENTS.md")); got != want {
		t.Fatalf("AGENTS.md =\n%s", got)
	}
	if b := m.State().BlockAt(m.Path("work/api/AGENTS.md"), "rule.go-style"); b == nil || !slices.Contains(b.WantedBy, `link.p["claude"].rule.go-style`) {
		t.Fatalf("the block in AGENTS.md is not recorded as Claude Code's too: %+v", b)
	}
	kept := false
	filepath.WalkDir(filepath.Join(m.Chronicle, "backups"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, "CLAUDE.md") {
			b, _ := os.ReadFile(p)
			kept = kept || string(b) == created
		}
		return nil
	})
	if !kept {
		t.Fatal("the removed CLAUDE.md is not in a backup set")
	}

	// A CLAUDE.md of the user's: Claude Code reads it, not AGENTS.md.
	m.Write("work/api/CLAUDE.md", "# Mine\n")
	m.Converge(m.Config(rulesConfig(project, `"go-style"`, true)))
	if got := m.Read(claudeMd); got != "# Mine\n\n<!-- chronicle:begin import.agents-md -->\n@AGENTS.md\n<!-- chronicle:end import.agents-md -->\n" {
		t.Fatalf("CLAUDE.md of the user's = %q", got)
	}
}

// Text the user changes outside the blocks between plan and apply is kept:
// the transaction reads the file again and splices the block into it, and
// a write landing while chronicle installs is caught by the
// compare-and-swap and spliced over again.
func TestBlockSplicedAgainOverEditsOutside(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	path := m.Write("work/api/AGENTS.md", handWritten)
	p := m.Plan(m.Config(rulesConfig(project, `"go-style"`, false)))
	m.Write("work/api/AGENTS.md", "# Title added after the plan\n"+handWritten)
	installs := 0
	m.System = &fsys.Recorder{System: fsys.OS{}, Before: func(op fsys.Op) error {
		if op.Name == "Install" && op.Path == path {
			installs++
			if installs == 1 {
				// Another program writes the file just before chronicle's install.
				return os.WriteFile(path, []byte("# Title added after the plan\n"+handWritten+"A line from the editor.\n"), 0o644)
			}
		}
		return nil
	}}
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	want := "# Title added after the plan\n" + handWritten + "A line from the editor.\n\n<!-- chronicle:begin rule.go-style -->\nUse gofmt.\nName things plainly.\n<!-- chronicle:end rule.go-style -->\n"
	if got := m.Read(m.Path("work/api/AGENTS.md")); got != want || installs != 2 {
		t.Fatalf("after %d installs AGENTS.md =\n%s\nwant\n%s", installs, got, want)
	}
}

// An edit inside a block between plan and apply fails that change's
// precondition: nothing in the file is touched.
func TestBlockEditedInsideSincePlanIsRefused(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write("work/api/AGENTS.md", handWritten)
	m.Converge(m.Config(rulesConfig(project, `"go-style"`, false)))
	cfg := m.Config(strings.Replace(rulesConfig(project, `"go-style"`, false), "Use gofmt.", "Use gofumpt.", 1))
	p := m.Plan(cfg)
	if c := enginetest.Change(t, p, `link.p["codex"].rule.go-style`); c.Action != plan.Update {
		t.Fatalf("want an update:\n%s", enginetest.Describe(p))
	}
	edited := strings.Replace(m.Read(m.Path("work/api/AGENTS.md")), "Name things plainly.", "Name things plainly!", 1)
	m.Write("work/api/AGENTS.md", edited)
	r, err := m.Apply(p)
	var changed interface{ Error() string }
	if err == nil || len(r.Failed) != 1 || !errors.As(r.Failed[0].Err, &changed) || !strings.Contains(r.Failed[0].Err.Error(), "changed since the plan") {
		t.Fatalf("apply: %v %+v", err, r)
	}
	if got := m.Read(m.Path("work/api/AGENTS.md")); got != edited {
		t.Fatalf("the file was touched:\n%s", got)
	}
}

// A file whose markers do not pair up is a plan error naming the file and
// line, and nothing in it changes.
func TestBrokenMarkersAreAnError(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write("work/api/AGENTS.md", handWritten+"<!-- chronicle:begin rule.tests -->\nhalf a block\n")
	p := m.Plan(m.Config(rulesConfig(project, `"go-style"`, false)))
	errs := p.Errors()
	if len(errs) != 1 || !strings.Contains(errs[0].Detail, filepath.Join(project, "AGENTS.md")+":4: chronicle:begin rule.tests has no chronicle:end") {
		t.Fatalf("errors: %+v", errs)
	}
	if _, err := m.Apply(p); err == nil {
		t.Fatal("a plan with errors was applied")
	}
}

// A command file of the same name that chronicle did not write is a
// conflict with a diff; --replace keeps it in a kept backup set and writes
// the declared one; an edit since is drift; removing the command removes
// the file.
func TestOwnedFileLifecycle(t *testing.T) {
	m := enginetest.New(t)
	text := func(body string) string {
		return `
command "review" {
  content     = "` + body + `"
  description = "Review a change"
}
link "u" {
  tools    = ["claude"]
  commands = ["review"]
}
`
	}
	addr := `link.u["claude"].command.review`
	m.Write(".claude/commands/review.md", "my own review prompt\n")
	p := m.Plan(m.Config(text("Review $ARGUMENTS.")))
	c := enginetest.Change(t, p, addr)
	if c.Action != plan.Conflict || !strings.Contains(c.Diff, "-my own review prompt") || !strings.Contains(c.Diff, "+Review $ARGUMENTS.") {
		t.Fatalf("conflict: %+v", c)
	}
	m.Converge(m.Config(text("Review $ARGUMENTS.")), addr)
	want := "---\ndescription: Review a change\n---\n\nReview $ARGUMENTS.\n"
	if got := m.Read(m.Path(".claude/commands/review.md")); got != want {
		t.Fatalf("review.md = %q", got)
	}
	kept := false
	filepath.WalkDir(filepath.Join(m.Chronicle, "backups"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, "review.md") {
			b, _ := os.ReadFile(p)
			kept = kept || string(b) == "my own review prompt\n"
		}
		return nil
	})
	if !kept {
		t.Fatal("the replaced file is not in a backup set")
	}
	m.Write(".claude/commands/review.md", want+"one more line\n")
	if c := enginetest.Change(t, m.Plan(m.Config(text("Review $ARGUMENTS."))), addr); c.Action != plan.Conflict || !strings.HasPrefix(c.Reason, "drift:") {
		t.Fatalf("drift: %+v", c)
	}
	m.Write(".claude/commands/review.md", want)
	m.Converge(m.Config(text("Review the staged change.")))
	m.Converge(m.Config(`link "u" {
  tools = ["claude"]
  skills = []
}`))
	if _, err := os.Stat(m.Path(".claude/commands/review.md")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the command file is still there: %v", err)
	}
}

// After a crash between writing a block and recording it, the journal's
// intent makes the block chronicle's: the next plan records it, writing
// nothing.
func TestInterruptedBlockIsRecognised(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write("work/api/AGENTS.md", handWritten+"\n<!-- chronicle:begin rule.go-style -->\nUse gofmt.\nName things plainly.\n<!-- chronicle:end rule.go-style -->\n")
	cfg := m.Config(rulesConfig(project, `"go-style"`, false))
	st := m.State()
	if err := st.Save(filepath.Join(m.Chronicle, "state.json")); err != nil {
		t.Fatal(err)
	}
	addr := `link.p["codex"].rule.go-style`
	if err := st.Journal(state.Intent{Address: addr, Action: "create", File: filepath.Join(project, "AGENTS.md"), Name: "rule.go-style"}); err != nil {
		t.Fatal(err)
	}
	p := m.Plan(cfg)
	c := enginetest.Change(t, p, addr)
	if c.Action != plan.Update || !c.Block.RecordOnly || !strings.Contains(c.Reason, "interrupted apply") {
		t.Fatalf("change: %+v", c)
	}
	before := m.Read(m.Path("work/api/AGENTS.md"))
	m.Converge(cfg)
	if m.Read(m.Path("work/api/AGENTS.md")) != before {
		t.Fatal("recording the block rewrote the file")
	}
}

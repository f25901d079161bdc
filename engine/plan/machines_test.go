package plan_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

const starConfig = `
service "hello" { command = "hello-mcp" }
service "world" { command = "world-mcp" }
chronova {}
skill "review" { source = "./skills/review" }
link "everywhere" {
  tools    = ["*"]
  services = ["*"]
  skills   = ["*"]
}
`

// TestToolsStar: tools = ["*"] writes to the tools present only (a tool
// without a skills folder gets its entries and no error), services =
// ["*"] takes every service but the hub-only chronova, and a tool that
// stops being present keeps what chronicle wrote for it, with one note.
func TestToolsStar(t *testing.T) {
	m := enginetest.New(t)
	m.Skill("skills", "review", "Review code.")
	m.Write(".gemini/settings.json", "{}\n")
	m.Write(".config/Code/User/mcp.json", "{}\n") // vscode: no skills folder
	// Cursor is present by its program on PATH only.
	bin := m.Path("bin")
	m.Write("bin/cursor-agent", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(bin, "cursor-agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	m.Env.Getenv = func(k string) (string, bool) { return bin, k == "PATH" }
	cfg := m.Config(starConfig)
	p := m.Plan(cfg)
	if errs := p.Errors(); len(errs) > 0 {
		t.Fatalf("errors: %+v", errs)
	}
	for _, addr := range []string{
		`link.everywhere["gemini"].service.hello`, `link.everywhere["gemini"].service.world`, `link.everywhere["gemini"].skill.review`,
		`link.everywhere["vscode"].service.hello`, `link.everywhere["cursor"].service.world`, `link.everywhere["cursor"].skill.review`,
	} {
		if c := enginetest.Change(t, p, addr); c.Action != plan.Create {
			t.Errorf("%s: %s", addr, c.Action)
		}
	}
	d := enginetest.Describe(p)
	for _, absent := range []string{`["claude"]`, `["zed"]`, `["codex"]`, `vscode"].skill`, "service.chronova", "No skills for"} {
		if strings.Contains(d, absent) {
			t.Errorf("the plan has %s:\n%s", absent, d)
		}
	}
	m.Converge(cfg)

	// Cursor leaves the machine: PATH no longer has it, and its file (which
	// apply created, making it present by its file too) is gone. What
	// chronicle wrote for it stays recorded, with one note.
	m.Env.Getenv = func(string) (string, bool) { return "", false }
	if err := os.Remove(m.Path(".cursor/mcp.json")); err != nil {
		t.Fatal(err)
	}
	cfg = m.Config(starConfig)
	p = m.Plan(cfg)
	if p.HasChanges() {
		t.Fatalf("a tool that left is not a removal:\n%s", enginetest.Describe(p))
	}
	notes := 0
	for _, dg := range p.Diagnostics {
		if dg.Severity == plan.SeverityNote && strings.HasPrefix(dg.Summary, "cursor is not present") {
			notes++
		}
	}
	if notes != 1 {
		t.Errorf("%d notes for cursor, want 1:\n%s", notes, enginetest.Describe(p))
	}
	if got := len(m.State().Entries); got != 6 {
		t.Errorf("the state keeps %d entries, want 6", got)
	}
	if _, err := os.Lstat(m.Path(".cursor/skills/review")); err != nil {
		t.Errorf("cursor's skill link: %v", err)
	}

	// Naming cursor writes it whether present or not; dropping a service
	// from the link removes cursor's entry for it even while cursor is
	// absent, and removing the link removes everything as before.
	cfg = m.Config(strings.Replace(starConfig, `services = ["*"]`, `services = ["hello"]`, 1))
	p = m.Plan(cfg)
	if c := enginetest.Change(t, p, `link.everywhere["cursor"].service.world`); c.Action != plan.Delete {
		t.Errorf("a service the link dropped: %s", c.Action)
	}
	if p.Has(`link.everywhere["cursor"].service.hello`) {
		t.Errorf("a kept entry is planned:\n%s", enginetest.Describe(p))
	}
	cfg = m.Config(`
service "hello" { command = "hello-mcp" }
link "other" {
  tools    = ["claude"]
  services = ["hello"]
}
`)
	p = m.Plan(cfg)
	for _, addr := range []string{`link.everywhere["cursor"].service.hello`, `link.everywhere["cursor"].skill.review`} {
		if c := enginetest.Change(t, p, addr); c.Action != plan.Delete {
			t.Errorf("%s of a removed link: %s", addr, c.Action)
		}
	}
	if c := enginetest.Change(t, p, `link.other["claude"].service.hello`); c.Action != plan.Create {
		t.Errorf("a named tool not present: %s", c.Action)
	}
}

// TestProjectMissing: a link's project folder that this machine does not
// have is a note; nothing is planned there, nothing made, and what was
// recorded there stays.
func TestProjectMissing(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write("work/api/README", "x\n")
	cfg := m.Config(fmt.Sprintf(`
service "db" { command = "db-mcp" }
link "api" {
  tools    = ["cursor"]
  services = ["db"]
  project  = %q
}
`, project))
	m.Converge(cfg)
	if err := os.RemoveAll(project); err != nil {
		t.Fatal(err)
	}
	p := m.Plan(cfg)
	if p.HasChanges() || len(p.Errors()) > 0 {
		t.Fatalf("a missing project changes nothing:\n%s", enginetest.Describe(p))
	}
	if d := enginetest.Describe(p); !strings.Contains(d, "note link.api: Project folder not on this machine: project folder "+project+" does not exist on this machine; link \"api\" writes nothing there") {
		t.Errorf("no note:\n%s", d)
	}
	if len(m.State().Entries) != 1 {
		t.Errorf("the record went: %+v", m.State().Entries)
	}
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(project); !os.IsNotExist(err) {
		t.Errorf("apply made the project folder: %v", err)
	}
}

// TestEmptiedToolFile: a tool file chronicle created goes with its last
// entry; one the user had, or one the user added to, stays byte for byte.
func TestEmptiedToolFile(t *testing.T) {
	m := enginetest.New(t)
	linked := `
service "hello" { command = "hello-mcp" }
link "here" {
  tools    = ["cursor", "gemini", "codex"]
  services = ["hello"]
}
`
	unlinked := `service "hello" { command = "hello-mcp" }` + "\n"
	m.Write(".gemini/settings.json", "{}\n")
	m.Converge(m.Config(linked))
	cursor, gemini, codex := m.Path(".cursor/mcp.json"), m.Path(".gemini/settings.json"), m.Path(".codex/config.toml")
	if st := m.State(); !st.Created(cursor) || !st.Created(codex) || st.Created(gemini) {
		t.Fatalf("created files: cursor %v, codex %v, gemini %v", st.Created(cursor), st.Created(codex), st.Created(gemini))
	}
	// The user adds a key of their own to codex's file.
	if err := os.WriteFile(codex, []byte("model = \"o3\"\n\n"+m.Read(codex)), 0o600); err != nil {
		t.Fatal(err)
	}
	p := m.Plan(m.Config(unlinked))
	c := enginetest.Change(t, p, plan.ToolFileAddress(cursor))
	if c.Action != plan.Delete || c.ToolFile == nil || len(c.ToolFile.Entries) != 1 {
		t.Fatalf("cursor's file: %+v", c)
	}
	for _, kept := range []string{gemini, codex} {
		if p.Has(plan.ToolFileAddress(kept)) {
			t.Errorf("%s is to be removed:\n%s", kept, enginetest.Describe(p))
		}
	}
	if _, err := m.Apply(m.Saved(p)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cursor); !os.IsNotExist(err) {
		t.Errorf("cursor's file is still there: %v", err)
	}
	if got := m.Read(gemini); got != "{}\n" {
		t.Errorf("gemini's file, the user's own: %q", got)
	}
	if got := m.Read(codex); !strings.HasPrefix(got, "model = \"o3\"\n") || strings.Contains(got, "hello") {
		t.Errorf("codex's file with the user's key: %q", got)
	}
	if st := m.State(); st.Created(cursor) || st.Created(codex) {
		t.Errorf("created files left in the state: cursor %v, codex %v", st.Created(cursor), st.Created(codex))
	}
	if p := m.Plan(m.Config(unlinked)); p.HasChanges() {
		t.Errorf("a plan after the removal:\n%s", enginetest.Describe(p))
	}
}

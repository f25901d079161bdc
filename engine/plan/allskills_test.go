package plan_test

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// skills = ["*"] means every skill where the tool can hold skills: a tool
// without a skills folder gets one note, not one error per skill, and the
// rest of the link is planned.
func TestAllSkillsSkipsToolsWithoutSkillsFolder(t *testing.T) {
	m := enginetest.New(t)
	var hcl strings.Builder
	for _, n := range []string{"a", "b", "c"} {
		m.Skill("skills", n, "body")
		hcl.WriteString("skill \"" + n + "\" {\n  source = \"./skills/" + n + "\"\n}\n")
	}
	hcl.WriteString(`
link "all" {
  tools  = ["claude-desktop", "cursor"]
  skills = ["*"]
}
`)
	p := m.Plan(m.Config(hcl.String()))
	if errs := p.Errors(); len(errs) != 0 {
		t.Fatalf("errors: %s", enginetest.Describe(p))
	}
	var notes []plan.Diagnostic
	for _, d := range p.Diagnostics {
		if strings.Contains(d.Address, "claude-desktop") {
			notes = append(notes, d)
		}
	}
	if len(notes) != 1 || notes[0].Severity != plan.SeverityNote || !strings.Contains(notes[0].Detail, "no skills folder") {
		t.Fatalf("notes for claude-desktop: %+v", notes)
	}
	for _, n := range []string{"a", "b", "c"} {
		if c := enginetest.Change(t, p, `link.all["cursor"].skill.`+n); c.Action != plan.Create {
			t.Errorf("cursor's %s: %s", n, c.Action)
		}
	}

	// A skill named outright is still an error where it cannot go.
	p = m.Plan(m.Config(strings.Replace(hcl.String(), `skills = ["*"]`, `skills = ["a"]`, 1)))
	if errs := p.Errors(); len(errs) != 1 || !strings.Contains(errs[0].Detail, "no skills folder") {
		t.Fatalf("a named skill: %s", enginetest.Describe(p))
	}
}

package plan_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// A tool file the plan cannot read is never a quiet absence: for a tool a
// link names it is an error of the plan (so apply refuses before doing
// anything, instead of "Apply complete!" and a failed change), for any
// other tool a warning; each file is reported once.
func TestUnreadableToolFilesAreReported(t *testing.T) {
	m := enginetest.New(t)
	m.Write(".gemini/settings.json", "\ufeff"+`{"mcpServers": {"docs": {"command": "npx"}}}`)
	m.Write(".config/zed/settings.json", strings.Repeat("[", 100_000)+strings.Repeat("]", 100_000))
	if err := os.Symlink(m.Path("nowhere/claude.json"), m.Path(".claude.json")); err != nil {
		t.Fatal(err)
	}
	cfg := m.Config(`
service "fs" {
  command = "npx"
}
link "hub" {
  tools = ["claude"]
  hub   = true
}
`)
	p := m.Plan(cfg)
	if p.Has(`link.hub["claude"].hub`) {
		t.Fatalf("the plan promises an entry in a file behind a dangling link:\n%s", enginetest.Describe(p))
	}
	// Files by the end of their path: the masker may shorten a temporary
	// home's random name.
	want := map[string]string{ // file → severity
		".claude.json":              "error",
		".gemini/settings.json":     "warning",
		".config/zed/settings.json": "warning",
	}
	seen := map[string]int{}
	for _, d := range p.Diagnostics {
		for file, sev := range want {
			if strings.Contains(d.Detail, file+":") {
				seen[file]++
				if d.Severity != sev {
					t.Errorf("%s is reported as %s, want %s: %s", file, d.Severity, sev, d.Detail)
				}
			}
		}
	}
	for file := range want {
		if seen[file] != 1 {
			t.Errorf("%s is reported %d times, want once:\n%s", file, seen[file], enginetest.Describe(p))
		}
	}
	if d := enginetest.Describe(p); !strings.Contains(d, "dangling link") || !strings.Contains(d, "nested deeper than 512") || !strings.Contains(d, `invalid character '\ufeff'`) {
		t.Errorf("the reasons are not given:\n%s", d)
	}
	if len(p.Errors()) == 0 {
		t.Fatal("a plan for a linked tool it cannot read has no error")
	}

	// Linked, the BOM file is an error too (the scan's and the entry's
	// error are one report).
	cfg = m.Config(`
service "fs" {
  command = "npx"
}
link "hub" {
  tools = ["gemini"]
  hub   = true
}
`)
	p = m.Plan(cfg)
	n := 0
	for _, d := range p.Errors() {
		if strings.Contains(d.Detail, ".gemini/settings.json:") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d errors for the linked gemini file, want 1:\n%s", n, enginetest.Describe(p))
	}
}

// A skill apply would refuse to copy (a link out of its folder) is refused
// by the plan, with apply's reason.
func TestSkillLinkingOutsideIsRefusedByPlan(t *testing.T) {
	m := enginetest.New(t)
	dir := m.Skill("skills", "leaky", "body")
	if err := os.Symlink(m.Path(".ssh/id_ed25519"), filepath.Join(dir, "key")); err != nil {
		t.Fatal(err)
	}
	cfg := m.Config(`
skill "leaky" {
  source = "./skills/leaky"
}
`)
	p := m.Plan(cfg)
	if p.Has("skill.leaky") {
		t.Fatalf("the plan promises a skill apply refuses:\n%s", enginetest.Describe(p))
	}
	errs := p.Errors()
	if len(errs) != 1 || errs[0].Address != "skill.leaky" || !strings.Contains(errs[0].Detail, "key links outside the skill") {
		t.Fatalf("errors: %+v", errs)
	}
}

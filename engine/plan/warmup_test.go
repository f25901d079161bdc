package plan_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hashcache"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// manySkills declares n skills (enough to be hashed on every core) linked
// into Cursor, and converges them.
func manySkills(m *enginetest.Machine, n int) string {
	var hcl strings.Builder
	for i := range n {
		name := fmt.Sprintf("s%02d", i)
		m.Skill("skills", name, "Skill "+name+".")
		fmt.Fprintf(&hcl, "skill %q {\n  source = \"./skills/%s\"\n}\n", name, name)
	}
	hcl.WriteString("link \"everywhere\" {\n  tools  = [\"cursor\"]\n  skills = [\"*\"]\n}\n")
	return hcl.String()
}

// A plan given the warm-up (started from the state before the
// configuration was known) is the plan made without one, whatever changed
// since the last apply — and it hashes no tree twice.
func TestWarmupChangesNothingInThePlan(t *testing.T) {
	m := enginetest.New(t)
	text := manySkills(m, 20)
	m.Converge(m.Config(text))

	// Since the apply: a source edited, a central copy edited, a source
	// folder gone, and a skill no longer declared (its source is still
	// there: the warm-up hashes it for nothing).
	m.Skill("skills", "s01", "Skill s01, version 2.")
	os.WriteFile(filepath.Join(m.Store, "s02", "SKILL.md"), []byte("---\nname: s02\ndescription: x\n---\nedited\n"), 0o644)
	os.RemoveAll(filepath.Join(m.ConfigDir, "skills", "s03"))
	cfg := m.Config(strings.Replace(text, "skill \"s04\" {\n  source = \"./skills/s04\"\n}\n", "", 1))

	without := enginetest.Describe(m.Plan(cfg))
	for _, want := range []string{"skill.s01", "skill.s02", "skill.s03", "skill.s04"} {
		if !strings.Contains(without, want) {
			t.Fatalf("the plan without a warm-up does not show %s:\n%s", want, without)
		}
	}

	rec := &fsys.Recorder{System: fsys.OS{}}
	reader := fsys.ReadOnly(rec)
	hashes, observed := (*hashcache.Cache)(nil).Reader(reader), (*hashcache.Cache)(nil).Reader(reader)
	st := m.State()
	warm := plan.StartWarmup(st, m.Store, hashes, observed)
	with := enginetest.Describe(m.PlanWith(cfg, func(in *plan.Inputs) {
		in.State, in.Reader, in.Hashes, in.Observed, in.Warmup = st, reader, hashes, observed, warm
	}))
	if with != without {
		t.Fatalf("with the warm-up the plan is\n%s\nwithout it\n%s", with, without)
	}
	walked := map[string]int{}
	for _, op := range rec.Ops() {
		if op.Name == "ReadDir" {
			walked[op.Path]++
		}
	}
	for dir, n := range walked {
		if n > 1 {
			t.Errorf("%s was listed %d times", dir, n)
		}
	}
	if walked[filepath.Join(m.ConfigDir, "skills", "s04")] != 1 || walked[filepath.Join(m.Store, "s10")] != 1 {
		t.Errorf("the warm-up did not hash the recorded skills: %v", walked)
	}
}

// A source imported as it is now is not checked again (its SKILL.md is
// hashed, not read and parsed); one that changed since is, and a name that no longer matches
// is an error of the plan.
func TestImportedSourceIsCheckedAgainWhenItChanges(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(skillConfig(m, ""))
	m.Converge(cfg)
	manifest := filepath.Join(m.ConfigDir, "skills", "review", "SKILL.md")

	rec := &fsys.Recorder{System: fsys.OS{}}
	if p := m.PlanWith(cfg, func(in *plan.Inputs) { in.Reader = fsys.ReadOnly(rec) }); p.HasChanges() {
		t.Fatalf("a plan after apply: %s", enginetest.Describe(p))
	}
	for _, op := range rec.Ops() {
		if op.Path == manifest && op.Name == "ReadFile" {
			t.Fatalf("the manifest of the unchanged source was read to be checked again")
		}
	}

	os.WriteFile(manifest, []byte("---\nname: other\ndescription: x\n---\nbody\n"), 0o644)
	p := m.Plan(cfg)
	errs := p.Errors()
	if len(errs) != 1 || errs[0].Address != "skill.review" || !strings.Contains(errs[0].Detail, `is "other", not "review"`) {
		t.Fatalf("a source renamed in its frontmatter: %+v\n%s", errs, enginetest.Describe(p))
	}
}

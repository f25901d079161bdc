package apply_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// Skills are imported and linked on several goroutines; what apply records
// must not depend on it: every skill and link in the state, in plan order,
// and a failure in the middle takes only its own skill and that skill's
// links with it.
func TestManySkillsAtOnceAreRecordedInPlanOrder(t *testing.T) {
	m := enginetest.New(t)
	var cfg strings.Builder
	for i := range 40 {
		name := fmt.Sprintf("s%02d", i)
		m.Skill("skills", name, "Skill "+name+".")
		fmt.Fprintf(&cfg, "skill %q {\n  source = \"./skills/%s\"\n}\n", name, name)
	}
	cfg.WriteString("link \"all\" {\n  tools  = [\"cursor\", \"gemini\"]\n  skills = [\"*\"]\n}\n")
	p := m.Plan(m.Config(cfg.String()))
	m.System = &fsys.Recorder{System: fsys.OS{}, Before: func(op fsys.Op) error {
		if op.Name == "RenameNew" && op.To == filepath.Join(m.Store, "s17") {
			return fmt.Errorf("injected failure")
		}
		return nil
	}}
	r, err := m.Apply(p)
	if err == nil {
		t.Fatal("apply reported no failure")
	}
	var failed []string
	for _, f := range r.Failed {
		failed = append(failed, f.Change.Address)
	}
	slices.Sort(failed)
	want := []string{`link.all["cursor"].skill.s17`, `link.all["gemini"].skill.s17`, "skill.s17"}
	if !slices.Equal(failed, want) {
		t.Fatalf("failed: %v, want %v", failed, want)
	}
	st := m.State()
	if len(st.Skills) != 39 || len(st.Links) != 78 {
		t.Fatalf("the state records %d skills and %d links, want 39 and 78", len(st.Skills), len(st.Links))
	}
	var planned []string
	for _, c := range p.Changes {
		if c.Kind == plan.KindLink && !strings.HasSuffix(c.Address, ".s17") {
			planned = append(planned, c.Address)
		}
	}
	var recorded []string
	for _, l := range st.Links {
		recorded = append(recorded, l.Address)
		if target, err := os.Readlink(l.Path); err != nil || target != l.Target {
			t.Errorf("%s: the link at %s leads to %q (%v), the state says %s", l.Address, l.Path, target, err, l.Target)
		}
	}
	if !slices.Equal(recorded, planned) {
		t.Fatalf("links recorded in another order than planned:\n got %v\nwant %v", recorded, planned)
	}
	if len(st.Intents) != 3 {
		t.Fatalf("journal after the apply: %d intents, want the 3 of the changes that did not complete", len(st.Intents))
	}
	// Without the fault, the next plan makes exactly what failed.
	var next []string
	for _, c := range m.Plan(m.Config(cfg.String())).Changes {
		if c.Action != plan.NoOp && c.Action != plan.Read {
			next = append(next, c.Action.String()+" "+c.Address)
		}
	}
	slices.Sort(next)
	if wantNext := []string{`create link.all["cursor"].skill.s17`, `create link.all["gemini"].skill.s17`, "create skill.s17"}; !slices.Equal(next, wantNext) {
		t.Fatalf("the next plan: %v, want %v", next, wantNext)
	}
}

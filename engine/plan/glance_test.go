package plan_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// A plan whose reader sees the first 20 unmanaged items reads those, and
// lists the skill folders past them without opening them (issue 28: a
// home with thousands of skills of the user's own). A folder named like a
// declared skill is always read; a plan shown whole reads every folder.
func TestUnmanagedSkillsPastTheShownOnesAreNotRead(t *testing.T) {
	m := enginetest.New(t)
	m.Skill("skills", "review", "Reviews.")
	cfg := m.Config(`
skill "review" {
  source = "./skills/review"
}
`)
	folder := m.Path(".cursor/skills")
	for i := range 25 {
		m.Skill(folder, fmt.Sprintf("own-%02d", i), "Mine.")
	}
	m.Skill(folder, "review", "The user's own, named like the declared one.")

	for _, shown := range []int{20, 0} {
		var mu sync.Mutex
		opened := map[string]bool{}
		rec := &fsys.Recorder{System: fsys.OS{}, Before: func(op fsys.Op) error {
			if op.Name == "Open" || op.Name == "ReadFile" {
				mu.Lock()
				opened[filepath.Base(filepath.Dir(op.Path))] = true
				mu.Unlock()
			}
			return nil
		}}
		p := m.PlanWith(cfg, func(in *plan.Inputs) {
			in.UnmanagedShown, in.Reader = shown, fsys.ReadOnly(rec)
		})
		status := map[string]string{}
		for _, u := range p.Unmanaged {
			if u.Kind == "skill" {
				status[u.Name] = u.Status
			}
		}
		if len(status) != 26 {
			t.Fatalf("shown %d: %d unmanaged skills listed, want 26: %v", shown, len(status), status)
		}
		for name, st := range status {
			n := 0
			fmt.Sscanf(name, "own-%d", &n)
			switch {
			case name == "review":
				// Past the first 20 (own-00 … own-24 come first), but read.
				if st != skills.StatusImportable || !opened["review"] {
					t.Errorf("shown %d: the folder named like the declared skill is %q (read: %v), want %q", shown, st, opened["review"], skills.StatusImportable)
				}
			case shown == 0 || strings.HasPrefix(name, "own-") && n < 20:
				if st != skills.StatusImportable || !opened[name] {
					t.Errorf("shown %d: %s is %q (read: %v), want %q", shown, name, st, opened[name], skills.StatusImportable)
				}
			default:
				if st != skills.StatusUnread || opened[name] {
					t.Errorf("shown %d: %s is %q (read: %v), want %q and not read", shown, name, st, opened[name], skills.StatusUnread)
				}
			}
		}
	}
}

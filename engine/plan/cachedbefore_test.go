package plan_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// staleSums answers the sum of each file under dir as it first read it: a
// hash cache that missed every later edit there, the worst a cache can do.
type staleSums struct {
	dir  string
	mu   sync.Mutex
	sums map[string][]byte
}

func (s *staleSums) FileSum(r fsys.Reader, path string, _ fs.FileInfo) ([]byte, error) {
	if !strings.HasPrefix(path, s.dir+string(filepath.Separator)) {
		return skills.FileSum(r, path)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sum, ok := s.sums[path]; ok {
		return sum, nil
	}
	sum, err := skills.FileSum(r, path)
	if err == nil {
		s.sums[path] = sum
	}
	return sum, err
}

// The Before of a central copy comes through the hash cache (decision
// 0050). A stale one can only make apply refuse: apply observes the copy
// again, reading every file, and never writes over an edit the cache
// missed.
func TestAStaleCachedBeforeOnlyMakesApplyRefuse(t *testing.T) {
	m := enginetest.New(t)
	source := m.Skill("skills", "review", "Review code.")
	cfg := m.Config("skill \"review\" {\n  source = \"./skills/review\"\n}\n")
	m.Converge(cfg)

	stale := &staleSums{dir: m.Store, sums: map[string][]byte{}}
	withStale := func(in *plan.Inputs) { in.Hashes = skills.NewHasher(in.Reader, stale) }
	m.PlanWith(cfg, withStale) // the cache learns the central copy as apply left it

	central := filepath.Join(m.Store, "review", "SKILL.md")
	edited := strings.Replace(m.Read(central), "Review code.", "Review code, edited in place.", 1)
	if err := os.WriteFile(central, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(source, "SKILL.md"), []byte(strings.Replace(m.Read(filepath.Join(source, "SKILL.md")), "Review code.", "Review code, v2.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	p := m.PlanWith(cfg, withStale)
	c := enginetest.Change(t, p, "skill.review")
	if c.Action != plan.Update {
		t.Fatalf("with a stale cache the plan %s skill.review (%s); the test wants the update it cannot tell from the edit", c.Action, c.Reason)
	}
	res, _ := m.Apply(p)
	if len(res.Failed) != 1 || res.Failed[0].Change.Address != "skill.review" {
		t.Fatalf("apply of a plan whose cached Before was stale: applied %d, failed %+v; want skill.review refused", len(res.Applied), res.Failed)
	}
	if got := m.Read(central); got != edited {
		t.Fatalf("apply wrote over the edit the cache missed:\n%s", got)
	}
}

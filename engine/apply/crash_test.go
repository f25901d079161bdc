package apply_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// errCrash stands for the process dying: the operation it fails, and every
// one after it, never happens.
var errCrash = errors.New("crashed")

// crashAt is a System that dies right before its nth write (counting from
// 1): from then on every operation fails, reads included. n = 0 never
// dies; writes then lists every write made.
type crashAt struct {
	*fsys.Recorder
	mu     sync.Mutex
	n      int
	writes []fsys.Op
	dead   bool
}

func newCrashAt(n int) *crashAt {
	c := &crashAt{n: n}
	c.Recorder = &fsys.Recorder{System: fsys.OS{}, Before: c.before}
	return c
}

func (c *crashAt) before(op fsys.Op) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead {
		return errCrash
	}
	switch op.Name {
	case "Lstat", "Stat", "ReadFile", "ReadDir", "Readlink", "Open", "ReadVersion":
		return nil
	}
	c.writes = append(c.writes, op)
	if len(c.writes) == c.n {
		c.dead = true
		return errCrash
	}
	return nil
}

// An apply that dies right before any of its writes — the journal's save,
// a tool file, a skill, a link, a backup, the state's periodic and final
// saves and their backups — leaves a state that loads (the one before the
// apply, or one it saved: never a torn file), and the next apply converges
// to what an uninterrupted one makes. State saves go through the System
// apply is given, so the crash lands on them too.
func TestCrashBeforeAnyWriteLeavesALoadableStateAndConverges(t *testing.T) {
	first := `
service "old" {
  command = "old"
}
link "direct" {
  tools    = ["cursor"]
  services = ["old"]
}
`
	setup := func() (*enginetest.Machine, uint64) {
		m := enginetest.New(t)
		skills(m)
		m.Write(cursorFile, `{"mcpServers": {"mine": {"command": "x"}}}`)
		m.Converge(m.Config(first))
		return m, m.State().Serial
	}

	m, _ := setup()
	full := newCrashAt(0)
	m.System = full
	if _, err := m.Apply(m.Plan(m.Config(everything))); err != nil {
		t.Fatal(err)
	}
	intended := strings.ReplaceAll(m.Read(m.Path(cursorFile)), m.Home, "~")
	saves := 0
	statePath := filepath.Join(m.Chronicle, "state.json")
	for _, op := range full.writes {
		if op.Name == "WriteFile" && (op.Path == statePath || op.Path == statePath+state.BackupSuffix) {
			saves++
		}
	}
	// The journal's save and the final one, each with its backup.
	if saves < 4 {
		t.Fatalf("apply's System saw %d writes of the state and its backup, want at least 4: state saves go around the seam\n%v", saves, full.writes)
	}

	for n := 1; n <= len(full.writes); n++ {
		op := full.writes[n-1]
		note := fmt.Sprintf("crash before write %d of %d (%s %s)", n, len(full.writes), op.Name, op.Path)
		m, before := setup()
		statePath := filepath.Join(m.Chronicle, "state.json")
		cfg := m.Config(everything)
		p := m.Plan(cfg)
		m.System = newCrashAt(n)
		if _, err := m.Apply(p); err == nil {
			t.Fatalf("%s: apply reported no error", note)
		}
		st, err := state.Load(statePath)
		if err != nil {
			t.Fatalf("%s: the state does not load: %v", note, err)
		}
		if st.Serial < before {
			t.Fatalf("%s: the state went back from serial %d to %d", note, before, st.Serial)
		}
		if _, err := state.Load(statePath + state.BackupSuffix); err != nil {
			t.Fatalf("%s: the state's backup does not load: %v", note, err)
		}
		m.System = fsys.OS{}
		m.Converge(cfg)
		if got := strings.ReplaceAll(m.Read(m.Path(cursorFile)), m.Home, "~"); got != intended {
			t.Fatalf("%s: after the second apply %s holds\n%s", note, cursorFile, got)
		}
	}
}

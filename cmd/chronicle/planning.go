package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/chronicle-dev/chronicle/cmd/chronicle/internal/early"
	"github.com/chronicle-dev/chronicle/engine/catalog"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hashcache"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// planFlags are the options shared by plan and apply.
type planFlags struct {
	replace []string
	destroy bool
	offline bool
}

// statePath is ~/.chronicle/state.json.
func (m *machine) statePath() string { return filepath.Join(m.chronicleHome, "state.json") }

// loadState reads the state (a new one when there is none): the one
// decoded while the process started when the file is still the same.
func (m *machine) loadState() (*state.State, error) {
	return loadState(m.early, m.statePath())
}

// loadState reads the state file at path, taking the decoding read ahead
// at start-up when the file is still the same.
func loadState(ahead *early.Reads, path string) (*state.State, error) {
	if st, ok, err := ahead.State(path); ok {
		return st, err
	}
	return state.Load(path)
}

// A prefetch is what plan reads while the configuration parses: the state
// (without the lock), the skill hash cache, and the plan's warm-up of the
// skills the state records (plan.StartWarmup).
type prefetch struct {
	chronicleHome string
	done          chan struct{}
	st            *state.State
	err           error
	hashes        *hashcache.Cache
	readers       planReaders
	warmup        *plan.Warmup
}

// planReaders are the readers of one plan (plan.Inputs Reader, Hashes and
// Observed).
type planReaders struct{ reader, hashes, observed fsys.Reader }

// newPlanReaders makes them, the skill hashes read through c.
func newPlanReaders(c *hashcache.Cache) planReaders {
	reader := fsys.ReadOnly(fsys.OS{})
	return planReaders{reader: reader, hashes: c.Reader(reader), observed: (*hashcache.Cache)(nil).Reader(reader)}
}

// prefetching starts the prefetch. It is used only when the machine turns
// out to have the chronicle home it read (always, unless it cannot be told
// in advance: then nothing is read ahead).
func (a *app) prefetching() *prefetch {
	ch, err := a.chronicleHome()
	if err != nil {
		return nil
	}
	pf := &prefetch{chronicleHome: ch, done: make(chan struct{})}
	go func() {
		defer close(pf.done)
		pf.hashes = hashcache.Load(filepath.Join(ch, hashcache.FileName), nil)
		pf.readers = newPlanReaders(pf.hashes)
		if pf.st, pf.err = loadState(a.early, filepath.Join(ch, "state.json")); pf.err == nil {
			pf.warmup = plan.StartWarmup(pf.st, filepath.Join(ch, "skills"), pf.readers.hashes, pf.readers.observed)
		}
	}()
	return pf
}

// finish waits for whatever the prefetch still reads (a plan that stopped
// early leaves no reading behind).
func (pf *prefetch) finish() {
	if pf != nil {
		<-pf.done
		pf.warmup.Wait()
	}
}

// state returns the prefetched state for m, or reads it when m has
// another chronicle home. The machine keeps the prefetched hash cache.
func (pf *prefetch) state(m *machine) (*state.State, error) {
	if pf == nil || m.chronicleHome != pf.chronicleHome {
		return m.loadState()
	}
	<-pf.done
	m.hashes = pf.hashes
	return pf.st, pf.err
}

// compute plans cfg on the machine against st: the engine returns the whole
// plan (changes with what they saw, unmanaged items, warnings); cmd only
// renders it.
func (a *app) compute(l *loaded, m *machine, st *state.State, f planFlags) *plan.Plan {
	return a.computeWith(l, m, st, f, nil)
}

// computeWith plans like compute, with what pf read ahead (nil: nothing).
func (a *app) computeWith(l *loaded, m *machine, st *state.State, f planFlags, pf *prefetch) *plan.Plan {
	replace := map[string]bool{}
	for _, r := range f.replace {
		replace[r] = true
	}
	hubCmd, hubErr := a.hubCommand(m)
	// The catalogue cache only informs (Plan.Context): one that cannot be
	// read counts as none.
	cat, _ := catalog.Load(catalog.Path(m.chronicleHome))
	if m.hashes == nil {
		m.hashes = hashcache.Load(filepath.Join(m.chronicleHome, hashcache.FileName), nil)
	}
	rs, warmup := newPlanReaders(m.hashes), (*plan.Warmup)(nil)
	if pf != nil && pf.chronicleHome == m.chronicleHome && pf.st == st {
		rs, warmup = pf.readers, pf.warmup
	}
	return plan.Compute(plan.Inputs{
		Config: l.cfg, ConfigWarnings: l.report.warnings(), State: st, Tools: m.tools, Env: m.env,
		StoreDir: m.store.Dir, HubCommand: hubCmd, HubError: hubErr, Replace: replace, Destroy: f.destroy,
		Chronicle: version, Offline: f.offline, Resolver: a.resolver(), Masker: a.masker,
		Progress: a.progress(), Context: a.ctx, Reader: rs.reader, Hashes: rs.hashes, Observed: rs.observed, Warmup: warmup, Scratch: fsys.OS{}, EUID: os.Geteuid(),
		Catalog: cat,
	})
}

// hubCommand is the command line a tool runs to start the hub: the
// absolute path of chronicle on PATH, else of this binary, with --home when
// chronicle's folder is not the default.
func (a *app) hubCommand(m *machine) ([]string, string) {
	bin, err := exec.LookPath("chronicle")
	if err == nil {
		bin, err = filepath.Abs(bin)
	}
	if err != nil {
		if bin, err = os.Executable(); err != nil {
			return nil, "cannot find the chronicle binary: " + err.Error()
		}
	}
	if strings.Contains(bin, string(filepath.Separator)+"go-build") {
		return nil, "chronicle is running from the Go build cache (go run), a path that will not last; install it first (go install ./cmd/chronicle) so that tools can start chronicle serve --stdio"
	}
	args := []string{bin, "serve", "--stdio"}
	if m.chronicleHome != filepath.Join(m.home, ".chronicle") {
		args = append(args, "--home", m.chronicleHome)
	}
	return args, ""
}

// progress is where long work (git clones) reports progress: stderr, only
// on a terminal.
func (a *app) progress() io.Writer {
	if a.color(a.stderr) {
		return a.stderr
	}
	return nil
}

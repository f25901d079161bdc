package apply

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/chronicle-dev/chronicle/engine/backup"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// Options are what Apply needs besides the plan.
type Options struct {
	State *state.State // loaded from its file, under the lock
	Tools []provider.Provider
	// Lists edits the lists of permission rules some tools keep beside
	// their MCP config (a plan's rule changes); cmd passes the providers'.
	Lists provider.ListEditor
	// System is how apply changes the machine; nil means the real one.
	System        fsys.System
	ChronicleHome string
	StoreDir      string // ~/.chronicle/skills
	SnapshotDir   string // ~/.chronicle/snapshots
	SkipConflicts bool
	Now           func() time.Time
	// Report is told about each change as it is done (err nil) or fails.
	Report func(c plan.Change, err error)
	// ConfigDir and Version are recorded in the state.
	ConfigDir string
	Version   string
	// Resolver resolves the auth of private git skills, in memory.
	Resolver secret.Resolver
	// Progress receives clone progress, or nil.
	Progress io.Writer
	// Context ends network work (git fetches) early; nil means never.
	Context context.Context
}

// A Result says what happened.
type Result struct {
	Applied   []plan.Change
	Failed    []Failure
	Conflicts []plan.Change
}

// A Failure is a change that could not be made, or was skipped because one
// it depends on could not.
type Failure struct {
	Change plan.Change
	Err    error
}

// ErrConflicts says the plan has conflicts and --skip-conflicts was not given.
var ErrConflicts = errors.New("the plan has conflicts")

// Apply carries out p. Conflicts stop everything unless SkipConflicts; a
// plan with errors is refused, and so is a change that lacks Before (a plan
// from an older chronicle). A failed change does not stop the others that do
// not depend on it; the result lists both.
func Apply(p *plan.Plan, o Options) (*Result, error) {
	if errs := p.Errors(); len(errs) > 0 {
		return nil, fmt.Errorf("the plan has %d errors; nothing was changed", len(errs))
	}
	r := &Result{Conflicts: p.Conflicts()}
	if len(r.Conflicts) > 0 && !o.SkipConflicts {
		return r, ErrConflicts
	}
	changes := ordered(p.Changes)
	for _, c := range changes {
		if c.Before == nil && touchesMachine(c) {
			return r, fmt.Errorf("%s: the plan does not record what it saw there; re-run chronicle plan", c.Address)
		}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.System == nil {
		o.System = fsys.OS{}
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	a := &applier{
		o: o, sys: o.System, st: o.State, tools: map[string]provider.Provider{}, lists: o.Lists,
		backups: backup.Begin(o.System, o.ChronicleHome, "apply", o.Now()),
		failed:  map[string]error{}, completed: map[string]bool{},
	}
	for _, t := range o.Tools {
		a.tools[t.Name()] = t
	}
	a.st.ConfigDir = o.ConfigDir
	a.st.ChronicleVersion = o.Version
	if err := a.journalAll(changes); err != nil {
		return r, err
	}
	report := func(c plan.Change, err error) {
		if o.Report != nil {
			o.Report(c, err)
		}
		if err != nil {
			r.Failed = append(r.Failed, Failure{c, err})
			return
		}
		r.Applied = append(r.Applied, c)
	}
	for _, batch := range batches(steps(changes)) {
		for _, res := range a.runBatch(batch) {
			report(res.change, res.err)
		}
	}
	// Skill copies and their snapshots are written without a sync each;
	// one flush makes them durable before the final state records them.
	if err := a.syncSkills(); err != nil {
		return r, err
	}
	if err := a.save(); err != nil {
		return r, err
	}
	if len(r.Failed) > 0 {
		return r, fmt.Errorf("%d of %d changes failed", len(r.Failed), len(r.Failed)+len(r.Applied))
	}
	return r, nil
}

// touchesMachine reports whether c changes something outside the state.
func touchesMachine(c plan.Change) bool {
	switch c.Kind {
	case plan.KindSkill, plan.KindLink, plan.KindEntry, plan.KindToolFile, plan.KindBlock, plan.KindFile, plan.KindRule:
		return true
	}
	return false
}

// An applier carries one Apply call.
type applier struct {
	o       Options
	sys     fsys.System
	st      *state.State
	tools   map[string]provider.Provider
	lists   provider.ListEditor
	backups *backup.Set
	// backupsMu guards backups while file transactions install at once.
	backupsMu sync.Mutex
	saved     time.Time     // when the state was last written
	saveTook  time.Duration // how long that took
	// failed holds the addresses of failed changes, for dependents.
	failed map[string]error
	// completed holds the changes done since the last save, whose intents
	// the next save drops (save).
	completed map[string]bool
}

// A result is the outcome of one change.
type result struct {
	change plan.Change
	err    error
}

// run carries out one step: a single change, or every entry change of one
// tool file as one transaction.
func (a *applier) run(s step) []result {
	if len(s.file) > 0 {
		return a.fileChanges(s.file)
	}
	if len(s.blocks) > 0 {
		return a.blockChanges(s.blocks)
	}
	if len(s.rules) > 0 {
		return a.ruleChanges(s.rules)
	}
	c := s.change
	if dep := a.dependency(c); dep != nil {
		return []result{{c, dep}}
	}
	err := a.precondition(c)
	if err == nil {
		err = a.dispatch(c)
	}
	if err != nil {
		a.fail(c, err)
		return []result{{c, err}}
	}
	if err := a.done(c.Address); err != nil {
		return []result{{c, err}}
	}
	return []result{{c, nil}}
}

func (a *applier) dispatch(c plan.Change) error {
	switch c.Kind {
	case plan.KindService, plan.KindPolicy, plan.KindHub, plan.KindProfile, plan.KindChronova:
		a.setting(c)
		return nil
	case plan.KindSkill:
		return a.skill(c)
	case plan.KindLink:
		return a.link(c)
	case plan.KindToolFile:
		return a.removeToolFile(c)
	case plan.KindFile:
		return a.ownedFile(c)
	}
	return fmt.Errorf("%s: unknown kind %q", c.Address, c.Kind)
}

// journalAll records the intent of every change in the state's journal, in
// one save, before any of them is carried out: after a crash at any point,
// whatever apply made is recognised as chronicle's own by the next plan.
func (a *applier) journalAll(changes []plan.Change) error {
	now := a.o.Now().UTC()
	for _, c := range changes {
		in := intent(c)
		in.Address, in.Action, in.Time = c.Address, c.Action.String(), now
		a.st.Intents = append(a.st.Intents, in)
	}
	if err := a.st.SaveThrough(a.sys, a.st.Path()); err != nil {
		return err
	}
	a.saved = a.o.Now()
	return nil
}

// intent says what a change will make, so that it can be recognised.
func intent(c plan.Change) state.Intent {
	switch {
	case c.Skill != nil:
		return state.Intent{Path: c.Skill.Store, Hash: c.Skill.Hash}
	case c.Link != nil:
		return state.Intent{Path: c.Link.Path, Target: c.Link.Target, Hash: c.Link.Hash}
	case c.ToolFile != nil:
		return state.Intent{Path: c.Path, Hash: c.Before.Hash}
	case c.Entry != nil:
		loc := c.Entry.Location
		return state.Intent{File: loc.File, KeyPath: loc.KeyPath, Name: c.Entry.Entry.Name}
	case c.Block != nil:
		return state.Intent{File: c.Block.File, Name: c.Block.ID}
	case c.File != nil:
		return state.Intent{Path: c.File.Path, Hash: c.File.Rendered}
	case c.Rule != nil:
		return state.Intent{File: c.Rule.List.File, KeyPath: c.Rule.List.KeyPath, Name: c.Rule.Rule}
	}
	return state.Intent{}
}

// saveEvery bounds how often the state is written while changes complete:
// each completed change is in the state at most this long after it is made
// (or saveShare of the time apply has spent, when saving a large state
// takes longer), and the journal covers it meanwhile. Writing a large state
// after every one of thousands of changes would make apply quadratic.
const (
	saveEvery = 200 * time.Millisecond
	saveShare = 5 // the time between saves is at least 5× the last save's
)

// done records that the change at address is complete, and saves the state
// when the last save is older than saveEvery, and older than saveShare
// times what it took.
func (a *applier) done(address string) error {
	a.completed[address] = true
	if a.o.Now().Sub(a.saved) < max(saveEvery, saveShare*a.saveTook) {
		return nil
	}
	start := a.o.Now()
	err := a.save()
	a.saved = a.o.Now()
	a.saveTook = a.saved.Sub(start)
	return err
}

// save writes the state, the intents of the changes completed since the
// last save removed from its journal first.
func (a *applier) save() error {
	a.st.DoneAll(a.completed)
	clear(a.completed)
	return a.st.SaveThrough(a.sys, a.st.Path())
}

// syncSkills flushes the filesystems of the skill store and the snapshots,
// when apply wrote there.
func (a *applier) syncSkills() error {
	for _, dir := range []string{a.o.StoreDir, a.o.SnapshotDir} {
		if dir == "" {
			continue
		}
		if _, err := a.sys.Lstat(dir); err != nil {
			continue // nothing written there
		}
		if err := a.sys.Sync(dir); err != nil {
			return fmt.Errorf("syncing %s: %w", dir, err)
		}
	}
	return nil
}

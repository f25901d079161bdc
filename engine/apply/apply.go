package apply

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/chronicle-dev/chronicle/engine/backup"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// Options are what Apply needs besides the plan.
type Options struct {
	State         *state.State // loaded from its file, under the lock
	Tools         map[string]provider.Provider
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
	// Context bounds network calls (git fetches); nil means
	// context.Background().
	Context context.Context
}

// A Result says what happened.
type Result struct {
	Applied   []plan.Change
	Failed    []Failure
	Conflicts []plan.Change
}

// A Failure is a change that could not be made.
type Failure struct {
	Change plan.Change
	Err    error
}

// ErrConflicts says the plan has conflicts and --skip-conflicts was not given.
var ErrConflicts = errors.New("the plan has conflicts")

// Apply carries out p. Conflicts stop everything unless SkipConflicts; a
// plan with errors is refused. A failed change does not stop the others that
// do not depend on it; the result lists both.
func Apply(p *plan.Plan, o Options) (*Result, error) {
	if errs := p.Errors(); len(errs) > 0 {
		return nil, fmt.Errorf("the plan has %d errors; nothing was changed", len(errs))
	}
	r := &Result{Conflicts: p.Conflicts()}
	if len(r.Conflicts) > 0 && !o.SkipConflicts {
		return r, ErrConflicts
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	a := &applier{o: o, st: o.State, backups: backup.Begin(o.ChronicleHome, "apply", o.Now()), replace: map[string]bool{}}
	for _, addr := range p.Replace {
		a.replace[addr] = true
	}
	a.st.ConfigDir = o.ConfigDir
	a.st.ChronicleVersion = o.Version
	changes := ordered(p.Changes)
	if err := a.journalAll(changes); err != nil {
		return r, err
	}
	for _, c := range changes {
		err := a.change(c)
		if err != nil {
			// Nothing of a failed change is recorded as chronicle's.
			a.st.Done(c.Address)
		}
		if o.Report != nil {
			o.Report(c, err)
		}
		if err != nil {
			r.Failed = append(r.Failed, Failure{c, err})
			continue
		}
		r.Applied = append(r.Applied, c)
	}
	if err := a.st.Save(a.st.Path()); err != nil {
		return r, err
	}
	if len(r.Failed) > 0 {
		return r, fmt.Errorf("%d of %d changes failed", len(r.Failed), len(r.Failed)+len(r.Applied))
	}
	return r, nil
}

// ordered puts changes in a safe order: settings, then skills into the
// store, then links and entries; removals of entries and links before the
// removal of the skills they point to. Conflicts and notes are left out.
func ordered(changes []plan.Change) []plan.Change {
	rank := func(c plan.Change) int {
		del := c.Action == plan.Delete
		switch {
		case !del && (c.Kind == plan.KindService || c.Kind == plan.KindPolicy || c.Kind == plan.KindHub || c.Kind == plan.KindChronova):
			return 0
		case !del && c.Kind == plan.KindSkill:
			return 1
		case !del:
			return 2
		case c.Kind == plan.KindEntry || c.Kind == plan.KindLink:
			return 3
		case c.Kind == plan.KindSkill:
			return 4
		}
		return 5
	}
	var out []plan.Change
	for r := 0; r <= 5; r++ {
		for _, c := range changes {
			if c.Action != plan.Conflict && c.Action != plan.Read && c.Action != plan.NoOp && rank(c) == r {
				out = append(out, c)
			}
		}
	}
	return out
}

// An applier carries one Apply call.
type applier struct {
	o       Options
	saved   time.Time // when the state was last written
	replace map[string]bool
	st      *state.State
	backups *backup.Set
}

func (a *applier) change(c plan.Change) error {
	switch c.Kind {
	case plan.KindService, plan.KindPolicy, plan.KindHub, plan.KindChronova:
		a.setting(c)
		return a.done(c.Address)
	case plan.KindSkill:
		return a.skill(c)
	case plan.KindLink:
		return a.link(c)
	case plan.KindEntry:
		return a.entry(c)
	}
	return fmt.Errorf("%s: unknown kind %q", c.Address, c.Kind)
}

// setting records a state-only change.
func (a *applier) setting(c plan.Change) {
	name := ""
	if c.Kind == plan.KindService || c.Kind == plan.KindPolicy {
		name = c.Address[len(c.Kind)+1:]
	}
	switch c.Kind {
	case plan.KindService:
		if c.Action == plan.Delete {
			delete(a.st.Services, name)
		} else {
			a.st.Services[name] = *c.Service
		}
	case plan.KindPolicy:
		if c.Action == plan.Delete {
			delete(a.st.Policies, name)
		} else {
			a.st.Policies[name] = *c.Policy
		}
	case plan.KindHub:
		a.st.Hub = c.Hub
		if c.Action == plan.Delete {
			a.st.Hub = nil
		}
	case plan.KindChronova:
		a.st.Chronova = c.Chronova
		if c.Action == plan.Delete {
			a.st.Chronova = nil
		}
	}
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
	if err := a.st.Save(a.st.Path()); err != nil {
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
		return state.Intent{Path: c.Link.Path, Target: c.Link.Target}
	case c.Entry != nil:
		loc := c.Entry.Location
		return state.Intent{File: loc.File, KeyPath: loc.KeyPath, Name: c.Entry.Entry.Name}
	}
	return state.Intent{}
}

// saveEvery bounds how often the state is written while changes complete:
// each completed change is in the state at most this long after it is made,
// and the journal covers it meanwhile. Writing a large state after every one
// of thousands of changes would make apply quadratic.
const saveEvery = 200 * time.Millisecond

// done records that the change at address is complete, and saves the state
// when the last save is older than saveEvery.
func (a *applier) done(address string) error {
	a.st.Done(address)
	if a.o.Now().Sub(a.saved) < saveEvery {
		return nil
	}
	a.saved = a.o.Now()
	return a.st.Save(a.st.Path())
}

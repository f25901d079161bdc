package apply

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// link makes, records or removes a skill link (or tracked copy). Its
// precondition has checked that the place holds what the plan saw, so the
// action decided by the plan is carried out as is: a place is only written
// when it was empty, held chronicle's own link or copy, or when --replace
// moved what was there into a kept backup set.
func (a *applier) link(c plan.Change) error {
	l := c.Link
	switch c.Action {
	case plan.Delete:
		if err := a.removeLink(c); err != nil {
			return err
		}
		a.forgetLink(c.Address)
		return nil
	case plan.Replace:
		if err := a.backups.Move(l.Path); err != nil {
			return fmt.Errorf("%s: %w", c.Address, err)
		}
	case plan.Create, plan.Update:
	default:
		return fmt.Errorf("%s: cannot %s a link", c.Address, c.Action)
	}
	rec, err := a.makeLink(c)
	if err != nil {
		return err
	}
	a.recordLinks([]state.Link{rec})
	return nil
}

// makeLink places a link or copy (created, or replaced once what was there
// is moved aside) or refreshes a copy, and returns the record to keep. It
// touches only the link's own place, never the state, so links to
// different places may be made at once.
func (a *applier) makeLink(c plan.Change) (state.Link, error) {
	l := c.Link
	switch c.Action {
	case plan.Create, plan.Replace:
		if err := a.place(l); err != nil {
			return state.Link{}, fmt.Errorf("%s: %w", c.Address, err)
		}
	case plan.Update:
		// A link already right is only recorded; a copy whose skill
		// changed is refreshed in one exchange.
		if l.Mode == state.ModeCopy && c.Before.Hash != l.Hash {
			if err := swap(a.sys, l.Target, l.Path); err != nil {
				return state.Link{}, fmt.Errorf("%s: %w", c.Address, err)
			}
		}
	}
	rec := state.Link{Address: c.Address, Tool: l.Tool, Path: l.Path, Target: l.Target, Mode: l.Mode}
	if l.Mode == state.ModeCopy {
		h, err := skills.Hash(a.sys, l.Path)
		if err != nil {
			return state.Link{}, fmt.Errorf("%s: %w", c.Address, err)
		}
		rec.Hash = h
	}
	return rec, nil
}

// place makes the link or copy at an empty place. Neither clobbers: a
// symlink fails when something appeared, and a copy is renamed into place
// only while nothing is there.
func (a *applier) place(l *plan.LinkSpec) error {
	if err := a.sys.MkdirAll(filepath.Dir(l.Path), 0o755); err != nil {
		return err
	}
	if l.Mode == state.ModeCopy {
		return skills.Copy(a.sys, l.Target, l.Path)
	}
	return a.sys.Symlink(l.Target, l.Path)
}

// removeLink removes what the plan saw chronicle made: its link, or its
// unchanged copy (the precondition checked both).
func (a *applier) removeLink(c plan.Change) error {
	switch c.Before.Kind {
	case observe.Absent:
		return nil
	case observe.Symlink:
		if err := a.sys.Remove(c.Link.Path); err != nil {
			return fmt.Errorf("%s: %w", c.Address, err)
		}
	case observe.Dir:
		return a.removeCopy(c)
	default:
		return fmt.Errorf("%s: %s holds %s; not removed", c.Address, c.Link.Path, c.Before)
	}
	return nil
}

func (a *applier) forgetLink(addr string) {
	a.st.Links = slices.DeleteFunc(a.st.Links, func(x state.Link) bool { return x.Address == addr })
}

// removeCopy removes chronicle's tracked copy. The folder is first renamed
// aside, out of reach of the tool, and hashed again there: only when it is
// still exactly what the plan saw is it deleted; otherwise it is put back.
func (a *applier) removeCopy(c plan.Change) error {
	path := c.Link.Path
	aside := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".chronicle-removing")
	if err := a.sys.RenameNew(path, aside); err != nil {
		return fmt.Errorf("%s: %w", c.Address, err)
	}
	now := observe.Place(a.sys, aside)
	if !now.Equal(*c.Before) {
		if err := a.sys.RenameNew(aside, path); err != nil {
			return fmt.Errorf("%s: %s changed while being removed, and putting it back failed (it is at %s): %w", c.Address, path, aside, err)
		}
		return &changedError{addr: c.Address, path: path, before: *c.Before, now: now}
	}
	if err := a.sys.RemoveAll(aside); err != nil {
		return fmt.Errorf("%s: %w", c.Address, err)
	}
	return nil
}

package apply

import (
	"fmt"
	"os"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// link makes, records or removes a skill link (or tracked copy). A place is
// only ever written when it is empty, or when --replace moved what was there
// into the backup set.
func (a *applier) link(c plan.Change) error {
	l := c.Link
	switch c.Action {
	case plan.Delete:
		if err := removeLink(l); err != nil {
			return fmt.Errorf("%s: %w", c.Address, err)
		}
		a.forgetLink(c.Address)
		return a.done(c.Address)
	case plan.Replace:
		if err := a.clearPlace(l.Path); err != nil {
			return err
		}
	case plan.Update:
		if l.Mode == state.ModeCopy {
			if err := refreshCopy(l); err != nil {
				return fmt.Errorf("%s: %w", c.Address, err)
			}
		}
	}
	if err := place(l); err != nil {
		return fmt.Errorf("%s: %w", c.Address, err)
	}
	rec := state.Link{Address: c.Address, Tool: l.Tool, Path: l.Path, Target: l.Target, Mode: l.Mode}
	if l.Mode == state.ModeCopy {
		h, err := skills.Hash(l.Path)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Address, err)
		}
		rec.Hash = h
	}
	a.forgetLink(c.Address)
	a.st.Links = append(a.st.Links, rec)
	return a.done(c.Address)
}

// place makes the link or copy when the place is empty, and checks that
// what is there is the intended link or copy otherwise.
func place(l *plan.LinkSpec) error {
	info, err := os.Lstat(l.Path)
	if err == nil {
		if l.Mode == state.ModeSymlink {
			if t, _ := os.Readlink(l.Path); info.Mode()&os.ModeSymlink != 0 && t == l.Target {
				return nil
			}
			return fmt.Errorf("%s is taken since the plan; nothing was overwritten", l.Path)
		}
		return nil // a tracked copy checked by refreshCopy or recorded as found
	}
	if err := ensureDir(l.Path); err != nil {
		return err
	}
	if l.Mode == state.ModeCopy {
		return skills.Copy(l.Target, l.Path)
	}
	return os.Symlink(l.Target, l.Path)
}

// refreshCopy replaces a tracked copy with the central skill.
func refreshCopy(l *plan.LinkSpec) error {
	if _, err := os.Lstat(l.Path); err != nil {
		return nil
	}
	return swap(l.Target, l.Path)
}

// removeLink removes a link only while it still points into the central
// store, and a copy only while it is unchanged.
func removeLink(l *plan.LinkSpec) error {
	info, err := os.Lstat(l.Path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if l.Mode == state.ModeCopy {
		if h, err := skills.Hash(l.Path); err != nil || h != l.Hash {
			return fmt.Errorf("%s changed since chronicle copied it; not removed", l.Path)
		}
		return os.RemoveAll(l.Path)
	}
	if t, _ := os.Readlink(l.Path); info.Mode()&os.ModeSymlink == 0 || t != l.Target {
		return fmt.Errorf("%s no longer points into the central store; not removed", l.Path)
	}
	return os.Remove(l.Path)
}

func (a *applier) forgetLink(addr string) {
	out := a.st.Links[:0]
	for _, l := range a.st.Links {
		if l.Address != addr {
			out = append(out, l)
		}
	}
	a.st.Links = out
}

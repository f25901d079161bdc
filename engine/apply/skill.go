package apply

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/snapshot"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// skill imports, refreshes or removes a central copy. An existing copy is
// snapshotted before it is replaced or removed.
func (a *applier) skill(c plan.Change) error {
	s := c.Skill
	name := s.Name
	switch c.Action {
	case plan.Delete:
		if _, err := os.Lstat(s.Store); err == nil {
			if h, err := skills.Hash(s.Store); err != nil || h != s.Hash {
				return fmt.Errorf("%s: %s changed since the plan; not removed", c.Address, s.Store)
			}
			if err := a.snapshot(name, s.Store, "apply"); err != nil {
				return err
			}
			if err := os.RemoveAll(s.Store); err != nil {
				return fmt.Errorf("%s: %w", c.Address, err)
			}
		}
		delete(a.st.Skills, name)
		return a.done(c.Address)
	case plan.Create, plan.Update, plan.Replace:
	default:
		return fmt.Errorf("%s: cannot %s a skill", c.Address, c.Action)
	}
	if h, err := skills.Hash(s.Source); err != nil || h != s.Hash {
		return fmt.Errorf("%s: %s changed since the plan; run plan again", c.Address, s.Source)
	}
	current, err := skills.Hash(s.Store)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := skills.Copy(s.Source, s.Store); err != nil {
			return fmt.Errorf("%s: %w", c.Address, err)
		}
	case err != nil:
		return fmt.Errorf("%s: %w", c.Address, err)
	case current != s.Hash:
		if err := a.snapshot(name, s.Store, "apply"); err != nil {
			return err
		}
		if err := swap(s.Source, s.Store); err != nil {
			return fmt.Errorf("%s: %w", c.Address, err)
		}
	}
	if err := a.snapshot(name, s.Store, "imported"); err != nil {
		return err
	}
	a.st.Skills[name] = state.Skill{Source: s.Source, Hash: s.Hash}
	return a.done(c.Address)
}

func (a *applier) snapshot(name, dir, kind string) error {
	if _, _, err := snapshot.Take(a.o.SnapshotDir, name, dir, snapshot.Kind(kind), snapshot.Meta{}); err != nil {
		return fmt.Errorf("snapshot of skill %s: %w", name, err)
	}
	return nil
}

// swap replaces the folder dst by a copy of src: the copy is staged beside
// dst, then renamed into place, so links to dst keep working and dst is
// never half-written.
func swap(src, dst string) error {
	staged := dst + ".chronicle-new"
	old := dst + ".chronicle-old"
	os.RemoveAll(staged)
	os.RemoveAll(old)
	if err := skills.Copy(src, staged); err != nil {
		return err
	}
	if err := os.Rename(dst, old); err != nil {
		os.RemoveAll(staged)
		return err
	}
	if err := os.Rename(staged, dst); err != nil {
		os.Rename(old, dst)
		return err
	}
	return os.RemoveAll(old)
}

// clearPlace moves whatever is at path into the backup set (--replace).
func (a *applier) clearPlace(path string) error {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return a.backups.Move(path)
}

func ensureDir(path string) error {
	return os.MkdirAll(filepath.Dir(path), 0o755)
}

package apply

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/gitskill"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/safefile"
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
	source := s.Source
	if s.Git != nil {
		dir, cleanup, err := a.fetch(c.Address, s)
		if err != nil {
			return err
		}
		defer cleanup()
		source = dir
	}
	if h, err := skills.Hash(source); err != nil || h != s.Hash {
		return fmt.Errorf("%s: %s changed since the plan; run plan again", c.Address, source)
	}
	current, err := skills.Hash(s.Store)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := skills.Copy(source, s.Store); err != nil {
			return fmt.Errorf("%s: %w", c.Address, err)
		}
	case err != nil:
		return fmt.Errorf("%s: %w", c.Address, err)
	case current != s.Hash:
		if err := a.snapshot(name, s.Store, "apply"); err != nil {
			return err
		}
		if err := swap(source, s.Store); err != nil {
			return fmt.Errorf("%s: %w", c.Address, err)
		}
	}
	rec := state.Skill{Source: s.Source, Hash: s.Hash}
	meta := snapshot.Meta{}
	if s.Git != nil {
		rec = state.Skill{Hash: s.Hash, OriginRepo: s.Git.URL, OriginSHA: s.Git.SHA, OriginRef: s.Git.Ref, Path: s.Git.Path}
		meta = snapshot.Meta{OriginRepo: s.Git.URL, OriginSHA: s.Git.SHA}
	}
	if _, _, err := snapshot.Take(a.o.SnapshotDir, name, s.Store, snapshot.KindImported, meta); err != nil {
		return fmt.Errorf("snapshot of skill %s: %w", name, err)
	}
	a.st.Skills[name] = rec
	return a.done(c.Address)
}

func (a *applier) snapshot(name, dir, kind string) error {
	if _, _, err := snapshot.Take(a.o.SnapshotDir, name, dir, snapshot.Kind(kind), snapshot.Meta{}); err != nil {
		return fmt.Errorf("snapshot of skill %s: %w", name, err)
	}
	return nil
}

// swap replaces the folder dst by a copy of src: the copy is staged beside
// dst, then exchanged with it (safefile.ReplaceDir), so links to dst keep
// working and dst is never half-written.
func swap(src, dst string) error {
	staged := dst + ".chronicle-new"
	old := dst + ".chronicle-old"
	os.RemoveAll(staged)
	os.RemoveAll(old)
	if err := skills.Copy(src, staged); err != nil {
		return err
	}
	if err := safefile.ReplaceDir(staged, dst, old); err != nil {
		os.RemoveAll(staged)
		return err
	}
	os.RemoveAll(staged)
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

// fetch takes a git skill again and checks it is still at the planned
// commit: apply carries out what the plan showed, or nothing.
func (a *applier) fetch(addr string, s *plan.SkillSpec) (string, func(), error) {
	auth := ""
	if !s.Git.Auth.IsZero() {
		var err error
		if auth, err = a.o.Resolver.Resolve(s.Git.Auth); err != nil {
			return "", nil, fmt.Errorf("%s: %w", addr, err)
		}
	}
	tmp, err := os.MkdirTemp("", "chronicle-apply-git-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	f, err := gitskill.Fetch(cmp.Or(a.o.Context, context.Background()), gitskill.FetchOptions{
		URL: s.Git.URL, Ref: s.Git.Ref, Path: s.Git.Path, Include: []string{s.Name}, Auth: auth, MaxSize: s.Git.MaxSize, Dir: tmp, Progress: a.o.Progress,
	})
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("%s: %w", addr, err)
	}
	if f.SHA != s.Git.SHA {
		cleanup()
		return "", nil, fmt.Errorf("%s: %s moved to %s since the plan (planned %s); run plan again", addr, s.Git.URL, f.SHA, s.Git.SHA)
	}
	return f.Skills[0].Dir, cleanup, nil
}

package apply

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/gitskill"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/snapshot"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// skill imports, refreshes or removes a central copy. Its precondition has
// checked that the store holds what the plan saw; an existing copy is
// snapshotted before it is replaced or removed.
func (a *applier) skill(c plan.Change) error {
	s := c.Skill
	switch c.Action {
	case plan.Delete:
		if c.Before.Kind != observe.Absent {
			if err := a.snapshot(s.Name, s.Store, snapshot.KindApply); err != nil {
				return err
			}
			if err := a.sys.RemoveAll(s.Store); err != nil {
				return fmt.Errorf("%s: %w", c.Address, err)
			}
		}
		delete(a.st.Skills, s.Name)
		return nil
	case plan.Create, plan.Update, plan.Replace:
	default:
		return fmt.Errorf("%s: cannot %s a skill", c.Address, c.Action)
	}
	rec, err := a.importSkill(c)
	if err != nil {
		return err
	}
	a.st.Skills[s.Name] = rec
	return nil
}

// importSkill puts a skill's central copy in place and snapshots it, and
// returns the record to keep. It touches only the skill's own folders (its
// copy in the store and its snapshots), never the state, so imports of
// different skills may run at once.
func (a *applier) importSkill(c plan.Change) (state.Skill, error) {
	s := c.Skill
	source := s.Source
	if s.Git != nil {
		dir, cleanup, err := a.fetch(c.Address, s)
		if err != nil {
			return state.Skill{}, err
		}
		defer cleanup()
		source = dir
	}
	changed := func() error {
		return &changedError{addr: c.Address, path: source,
			before: observe.Observation{Kind: observe.Dir, Hash: s.Hash}, now: observe.Place(a.sys, source)}
	}
	switch {
	case c.Before.Kind == observe.Absent:
		// The copy is hashed as it is made, and put in place only when
		// it is the skill the plan saw.
		if _, err := skills.CopyHashed(a.sys, source, s.Store, s.Hash); errors.Is(err, skills.ErrChanged) {
			return state.Skill{}, changed()
		} else if err != nil {
			return state.Skill{}, fmt.Errorf("%s: %w", c.Address, err)
		}
	case c.Before.Hash != s.Hash:
		if h, err := skills.Hash(a.sys, source); err != nil || h != s.Hash {
			return state.Skill{}, changed()
		}
		if err := a.snapshot(s.Name, s.Store, snapshot.KindApply); err != nil {
			return state.Skill{}, err
		}
		if err := swap(a.sys, source, s.Store); err != nil {
			return state.Skill{}, fmt.Errorf("%s: %w", c.Address, err)
		}
	}
	rec := state.Skill{Source: s.Source, Hash: s.Hash}
	meta := snapshot.Meta{Hash: s.Hash, Batch: true}
	if s.Git != nil {
		rec = state.Skill{Hash: s.Hash, OriginRepo: s.Git.URL, OriginSHA: s.Git.SHA, OriginRef: s.Git.Ref, Path: s.Git.Path}
		meta = snapshot.Meta{Hash: s.Hash, Batch: true, OriginRepo: s.Git.URL, OriginSHA: s.Git.SHA}
	}
	if _, _, err := snapshot.Take(a.sys, a.o.SnapshotDir, s.Name, s.Store, snapshot.KindImported, meta); err != nil {
		return state.Skill{}, fmt.Errorf("snapshot of skill %s: %w", s.Name, err)
	}
	return rec, nil
}

func (a *applier) snapshot(name, dir string, kind snapshot.Kind) error {
	if _, _, err := snapshot.Take(a.sys, a.o.SnapshotDir, name, dir, kind, snapshot.Meta{Batch: true}); err != nil {
		return fmt.Errorf("snapshot of skill %s: %w", name, err)
	}
	return nil
}

// swap replaces the folder dst by a copy of src: the copy is staged beside
// dst, then exchanged with it (ReplaceDir), so links to dst keep working and
// dst is never half-written.
func swap(sys fsys.System, src, dst string) error {
	work, err := sys.MkdirTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".swap-")
	if err != nil {
		return err
	}
	defer sys.RemoveAll(work)
	staged := filepath.Join(work, "new")
	if err := skills.Copy(sys, src, staged); err != nil {
		return err
	}
	return sys.ReplaceDir(staged, dst, filepath.Join(work, "old"))
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
	tmp, err := a.sys.MkdirTemp("", "chronicle-apply-git-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { a.sys.RemoveAll(tmp) }
	// A locked commit is fetched by its SHA: the tip of Ref may have moved
	// on, and the lock file says which commit this machine installs.
	locked := ""
	if s.Git.Locked {
		locked = s.Git.SHA
	}
	f, err := gitskill.Fetch(a.o.Context, gitskill.FetchOptions{
		URL: s.Git.URL, Ref: s.Git.Ref, Commit: locked, Path: s.Git.Path, Include: []string{s.Name}, Auth: auth, MaxSize: s.Git.MaxSize, Dir: tmp, Progress: a.o.Progress, Scratch: a.sys,
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

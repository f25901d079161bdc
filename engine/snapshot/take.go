package snapshot

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/lock"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// lockWait is how long Take and Restore wait for another process working on
// the same skill's snapshots.
const lockWait = 30 * time.Second

// Take snapshots the skill folder dir as skill under root. When dir's tree
// equals the latest snapshot's, it takes none and returns that snapshot and
// false. Taking an fs_change snapshot drops the oldest beyond KeepFSChange.
func Take(sys fsys.System, root, skill, dir string, kind Kind, meta Meta) (Snapshot, bool, error) {
	sdir, err := skillDir(root, skill)
	if err != nil {
		return Snapshot{}, false, err
	}
	if err := checkKind(kind); err != nil {
		return Snapshot{}, false, err
	}
	l, err := lockSkill(sys, sdir)
	if err != nil {
		return Snapshot{}, false, err
	}
	defer l.Release()
	return take(sys, sdir, skill, dir, kind, meta)
}

// lockSkill takes the per-skill lock, creating the skill's folder.
func lockSkill(sys fsys.System, sdir string) (*lock.Lock, error) {
	if err := sys.MkdirAll(sdir, 0o700); err != nil {
		return nil, fmt.Errorf("snapshots: %w", err)
	}
	// Snapshot locks are held for one copy only: a short, uncancelled wait.
	return lock.Acquire(context.Background(), filepath.Join(sdir, ".lock"), "snapshot", lockWait)
}

// take does Take's work under the skill's lock.
func take(sys fsys.System, sdir, skill, dir string, kind Kind, meta Meta) (Snapshot, bool, error) {
	idx, err := readIndex(sys, sdir, skill)
	if err != nil {
		return Snapshot{}, false, err
	}
	hash := meta.Hash
	if hash == "" {
		if hash, err = skills.Hash(sys, dir); err != nil {
			return Snapshot{}, false, err
		}
	}
	if last, ok := idx.current(); ok && last.Hash == hash {
		return last, false, nil
	}
	if err := idx.tidy(sys, sdir); err != nil {
		return Snapshot{}, false, err
	}
	id := idx.nextID()
	dst := filepath.Join(sdir, id)
	// Record the copy's hash, not the source's: the source may have
	// changed while it was copied, and the copy is what a restore brings
	// back. It is the hash of the bytes as they were copied.
	if hash, err = skills.CopyHashed(sys, dir, dst, ""); err != nil {
		return Snapshot{}, false, fmt.Errorf("snapshot of %s: %w", skill, err)
	}
	if last, ok := idx.current(); ok && last.Hash == hash {
		return last, false, sys.RemoveAll(dst)
	}
	snap := Snapshot{
		ID: id, Kind: kind, Time: time.Now().UTC(), Hash: hash,
		OriginRepo: meta.OriginRepo, OriginSHA: meta.OriginSHA, Note: meta.Note,
	}
	idx.Snapshots = append(idx.Snapshots, snap)
	dropped := idx.prune()
	// The index is written before dropped copies are removed: a crash in
	// between leaves orphans that tidy removes, never an entry without a copy.
	if err := idx.write(sys, sdir); err != nil {
		return Snapshot{}, false, err
	}
	for _, old := range dropped {
		if err := sys.RemoveAll(filepath.Join(sdir, old)); err != nil {
			return snap, true, fmt.Errorf("pruning snapshot %s of %s: %w", old, skill, err)
		}
	}
	if !meta.Batch {
		if err := sys.Sync(sdir); err != nil {
			return snap, true, fmt.Errorf("snapshot of %s: %w", skill, err)
		}
	}
	return snap, true, nil
}

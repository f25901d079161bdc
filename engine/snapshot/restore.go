package snapshot

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// Restore replaces storeDir/skill with snapshot id of skill, after taking
// a KindRestore snapshot of the current content.
//
// The folder keeps its path, so links to it keep working. The new content
// is copied beside it and swapped in: on Linux and macOS with one atomic
// exchange; elsewhere, or where the filesystem refuses the exchange, with
// two renames (current aside, new into place), between which the path is
// missing for an instant and a tool reading through a link then sees no
// skill.
func Restore(sys fsys.System, root, skill, id, storeDir string) error {
	sdir, err := skillDir(root, skill)
	if err != nil {
		return err
	}
	if err := checkID(skill, id); err != nil {
		return err
	}
	l, err := lockSkill(sys, sdir)
	if err != nil {
		return err
	}
	defer l.Release()
	idx, err := readIndex(sys, sdir, skill)
	if err != nil {
		return err
	}
	if _, err := idx.find(id); err != nil {
		return err
	}

	current := filepath.Join(storeDir, skill)
	_, err = sys.Lstat(current)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("restoring %s: %w", skill, err)
	}
	if exists {
		meta := Meta{Note: "before restoring snapshot " + id}
		if _, _, err := take(sys, sdir, skill, current, KindRestore, meta); err != nil {
			return fmt.Errorf("restoring %s: snapshot of the current content: %w", skill, err)
		}
	}

	if err := sys.MkdirAll(storeDir, 0o755); err != nil {
		return fmt.Errorf("restoring %s: %w", skill, err)
	}
	// Hidden, so scans of the store pass over it.
	work, err := sys.MkdirTemp(storeDir, "."+skill+".restore-")
	if err != nil {
		return fmt.Errorf("restoring %s: %w", skill, err)
	}
	defer func() {
		// Keep the work folder if a failed swap left the old content there.
		if _, err := sys.Lstat(current); err == nil || !exists {
			sys.RemoveAll(work)
		}
	}()
	staged := filepath.Join(work, skill)
	if err := skills.Copy(sys, filepath.Join(sdir, id), staged); err != nil {
		return fmt.Errorf("restoring %s from snapshot %s: %w", skill, id, err)
	}
	if !exists {
		err = sys.Rename(staged, current)
	} else {
		err = sys.ReplaceDir(staged, current, filepath.Join(work, "previous"))
	}
	if err != nil {
		return fmt.Errorf("restoring %s: %w", skill, err)
	}
	// The store now holds snapshot id's content: a snapshot of it (serve's
	// watcher sees the restore's own writes) would repeat that one.
	if idx, err = readIndex(sys, sdir, skill); err != nil {
		return fmt.Errorf("restoring %s: %w", skill, err)
	}
	snap, err := idx.find(id)
	if err != nil {
		return fmt.Errorf("restoring %s: %w", skill, err)
	}
	last, _ := idx.latest()
	idx.Restored = &restored{ID: id, Hash: snap.Hash, After: last.ID}
	if err := idx.write(sys, sdir); err != nil {
		return fmt.Errorf("restoring %s: %w", skill, err)
	}
	return nil
}

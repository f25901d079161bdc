package backup

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// Restore puts every item of set id back where it was: copied files are
// written back byte for byte with their mode, files that did not exist are
// removed, and moved folders, files and links are moved back. What is there
// now is backed up first, in a new set, so a restore can itself be undone.
// It returns that new set.
func Restore(sys fsys.System, chronicleHome, id string, now time.Time) (*Set, error) {
	set, err := Load(sys, Dir(chronicleHome), id)
	if err != nil {
		return nil, fmt.Errorf("backup %s: %w", id, err)
	}
	// Check every stored copy before touching anything.
	data := make(map[string][]byte, len(set.Files))
	for _, f := range set.Files {
		if f.Absent || f.Moved {
			continue
		}
		b, err := sys.ReadFile(filepath.Join(set.dir, f.Stored))
		if err != nil {
			return nil, fmt.Errorf("backup %s: %w", id, err)
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != f.SHA256 {
			return nil, fmt.Errorf("backup %s: the copy of %s is damaged (checksum mismatch); nothing was restored", id, f.Path)
		}
		data[f.Path] = b
	}
	before := Begin(sys, chronicleHome, "restore "+id, now)
	for _, f := range set.Files {
		if f.Moved {
			continue
		}
		if err := before.Add(f.Path); err != nil {
			return nil, err
		}
	}
	for _, f := range set.Files {
		if f.Moved {
			if err := putBack(sys, set, before, f); err != nil {
				return before, err
			}
			continue
		}
		if f.Absent {
			if err := sys.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return before, fmt.Errorf("restoring %s: %w", f.Path, err)
			}
			continue
		}
		if err := sys.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			return before, fmt.Errorf("restoring %s: %w", f.Path, err)
		}
		if err := sys.WriteFile(f.Path, data[f.Path], f.Mode); err != nil {
			return before, fmt.Errorf("restoring %s: %w", f.Path, err)
		}
		if f.Mode != 0 {
			if err := sys.Chmod(f.Path, f.Mode); err != nil {
				return before, fmt.Errorf("restoring %s: %w", f.Path, err)
			}
		}
	}
	return before, nil
}

// putBack returns a moved directory, file or link to its place. Whatever
// chronicle put there since (its link or copy) is moved into the new set
// first, so nothing is lost either way.
func putBack(sys fsys.System, set, before *Set, f File) error {
	src := filepath.Join(set.dir, f.Stored)
	if _, err := sys.Lstat(src); err != nil {
		return fmt.Errorf("restoring %s: it is no longer in backup %s (restored already?)", f.Path, set.ID)
	}
	if _, err := sys.Lstat(f.Path); err == nil {
		if err := before.Move(f.Path); err != nil {
			return err
		}
	}
	if err := sys.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
		return fmt.Errorf("restoring %s: %w", f.Path, err)
	}
	if err := sys.Rename(src, f.Path); err != nil {
		return fmt.Errorf("restoring %s: %w", f.Path, err)
	}
	return nil
}

package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// BackupSuffix names the copy of the previous state file that Save keeps
// beside it: state.json.backup.
const BackupSuffix = ".backup"

// fileMode is the mode of the state file and its backup: the state holds
// paths and references that are nobody else's business.
const fileMode = 0o600

// Load reads the state file at path. A missing file gives a new empty state
// (IsNew reports true) with a fresh lineage and serial 0; the file is
// created by the first Save.
func Load(path string) (*State, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		s := New()
		s.path = path
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading state: %w", err)
	}
	f, err := decode(path, data)
	if err != nil {
		return nil, withBackup(path, data, err)
	}
	s, err := fromFile(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.path = path
	return s, nil
}

// withBackup adds to the error of a state file that cannot be read how to
// go back to the backup Save kept, when that backup can be read: a file
// truncated by a full disk or an editor should not leave the user with
// "unexpected end of JSON input" alone. A file of a newer chronicle is not
// damaged, and gets no such advice.
func withBackup(path string, data []byte, err error) error {
	if v, verr := version(path, data); verr == nil && v > currentVersion {
		return err
	}
	backup := path + BackupSuffix
	old, rerr := os.ReadFile(backup)
	if rerr != nil {
		return fmt.Errorf("%w (and there is no %s to go back to)", err, backup)
	}
	if _, derr := decode(backup, old); derr != nil {
		return fmt.Errorf("%w (and %s cannot be read either)", err, backup)
	}
	return fmt.Errorf("%w; the state before the last save is intact in %s: to go back to it, run cp %s %s, then chronicle plan", err, backup, backup, path)
}

// Save writes the state to path through the real filesystem: SaveThrough
// with fsys.OS.
func (s *State) Save(path string) error { return s.SaveThrough(fsys.OS{}, path) }

// SaveThrough writes the state to path through sys with its serial one
// higher: atomically, in mode 0600, after copying the file it replaces to
// path+BackupSuffix. It refuses to replace a state file of another lineage,
// or one saved since this state was loaded (a higher serial), so two
// histories never mix. Apply saves through the System it writes the machine
// through, so a fault or a kill injected there reaches state saves too.
func (s *State) SaveThrough(sys fsys.System, path string) error {
	if err := sys.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("saving state: %w", err)
	}
	// The backup is the state this save replaces. When the file is still
	// the one this state last wrote (the same inode, size and time: every
	// save renames a new file into place), its bytes are at hand: they
	// are written as the backup without reading and checking the file again.
	if s.ownsFile(sys, path) {
		if err := writePrivate(sys, path+BackupSuffix, s.wroteData); err != nil {
			return fmt.Errorf("keeping the previous state: %w", err)
		}
	} else if err := s.keepPrevious(sys, path); err != nil {
		return err
	}
	s.Serial++
	data, err := json.MarshalIndent(toFile(s), "", "  ")
	if err == nil {
		data = append(data, '\n')
		err = sys.WriteFile(path, data, fileMode)
	}
	if err != nil {
		s.Serial--
		return fmt.Errorf("saving state: %w", err)
	}
	// The state is saved from here on: what follows only narrows its
	// mode, and a failure there must not make the next save take this
	// state's own file for another run's.
	s.path, s.isNew = path, false
	s.wrote, _ = sys.Stat(path)
	s.wroteData = data
	if err := private(sys, path); err != nil {
		return fmt.Errorf("saving state: %w", err)
	}
	return nil
}

// ownsFile reports whether the file at path is the one this state last
// wrote there.
func (s *State) ownsFile(sys fsys.Reader, path string) bool {
	if s.wrote == nil || path != s.path {
		return false
	}
	now, err := sys.Stat(path)
	return err == nil && os.SameFile(now, s.wrote) && now.Size() == s.wrote.Size() && now.ModTime().Equal(s.wrote.ModTime())
}

// keepPrevious checks the file about to be replaced and copies it to the
// backup file.
func (s *State) keepPrevious(sys fsys.System, path string) error {
	old, err := sys.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("saving state: %w", err)
	}
	var head struct {
		Serial  uint64 `json:"serial"`
		Lineage string `json:"lineage"`
	}
	if json.Unmarshal(old, &head) == nil && head.Lineage != "" {
		if head.Lineage != s.Lineage {
			return fmt.Errorf("%s belongs to another state (lineage %s, this one is %s); refusing to overwrite it: move it aside if it is stale", path, head.Lineage, s.Lineage)
		}
		if head.Serial > s.Serial {
			return fmt.Errorf("%s was saved by another run since this one read it (serial %d, read at %d); run the command again", path, head.Serial, s.Serial)
		}
	}
	if v, err := version(path, old); err == nil && v < currentVersion {
		// An older format may hold plain-text secrets: the backup keeps
		// the file as read, upgraded and scrubbed, never the plain text.
		f, err := decode(path, old)
		if err != nil {
			return fmt.Errorf("saving state: %w", err)
		}
		if old, err = json.MarshalIndent(f, "", "  "); err != nil {
			return err
		}
		old = append(old, '\n')
	}
	if err := writePrivate(sys, path+BackupSuffix, old); err != nil {
		return fmt.Errorf("keeping the previous state: %w", err)
	}
	return nil
}

// writePrivate writes atomically through sys and makes sure the result is
// 0600 even when an older file had a wider mode, which WriteFile keeps.
func writePrivate(sys fsys.System, path string, data []byte) error {
	if err := sys.WriteFile(path, data, fileMode); err != nil {
		return err
	}
	return private(sys, path)
}

// private gives the file at path mode 0600.
func private(sys fsys.System, path string) error {
	if err := sys.Chmod(path, fileMode); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

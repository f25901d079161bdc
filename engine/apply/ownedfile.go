package apply

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// ownedFile makes, records or removes a rule, command or agent file
// chronicle owns whole. Its precondition has checked that the file is what
// the plan saw; the write itself is a compare-and-swap against the version
// read just before, so a program writing the file meanwhile wins and the
// change fails. An existing file's bytes go into the backup set first;
// --replace moves a file chronicle did not write into a kept set.
func (a *applier) ownedFile(c plan.Change) error {
	f := c.File
	if c.Action == plan.Delete {
		return a.removeOwnedFile(c)
	}
	if f.RecordOnly {
		return a.recordOwnedFile(c, f.Takeover)
	}
	switch c.Action {
	case plan.Replace:
		if err := a.backups.Move(f.Path); err != nil {
			return fmt.Errorf("%s: %w", c.Address, err)
		}
	case plan.Create, plan.Update:
	default:
		return fmt.Errorf("%s: cannot %s a file", c.Address, c.Action)
	}
	folder, err := a.createdFolder(f.Path)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Address, err)
	}
	if err := a.sys.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
		return fmt.Errorf("%s: %w", c.Address, err)
	}
	now, err := a.sys.ReadVersion(f.Path)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Address, err)
	}
	if now.Exists {
		if got := toolfile.Hash(now.Data); c.Action != plan.Update || got != c.Before.Hash {
			return &changedError{addr: c.Address, path: f.Path, before: *c.Before, now: observe.Observation{Kind: observe.File, Hash: got}}
		}
		if err := a.backupBytes(f.Path, now.Data, true); err != nil {
			return fmt.Errorf("%s: %w", c.Address, err)
		}
	}
	in, err := a.sys.Install(f.Path, []byte(f.Content), 0o644, now)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Address, err)
	}
	if !in.Done {
		return fmt.Errorf("%s: %s changed while chronicle wrote it; the other program's version is kept (run chronicle plan again)", c.Address, f.Path)
	}
	a.st.SetFile(state.File{Address: c.Address, Tool: f.Tool, Kind: f.Kind, Path: f.Path, Hash: f.Rendered, Rendered: f.Rendered, Folder: folder})
	if f.Takeover != "" && f.Takeover != c.Address {
		a.st.ForgetFile(f.Takeover)
	}
	return nil
}

// recordOwnedFile records the file as it is (an import, a rename, or what
// an interrupted apply wrote).
func (a *applier) recordOwnedFile(c plan.Change, takeover string) error {
	f := c.File
	if takeover != "" && takeover != c.Address {
		a.st.ForgetFile(takeover)
	}
	folder := ""
	if rec := a.st.FileAt(f.Path); rec != nil {
		folder = rec.Folder
	}
	a.st.SetFile(state.File{Address: c.Address, Tool: f.Tool, Kind: f.Kind, Path: f.Path, Hash: c.Before.Hash, Rendered: f.Rendered, Folder: folder})
	return nil
}

// createdFolder returns the topmost folder chronicle creates, or created
// earlier, to hold the file at path: the topmost missing folder above it,
// or the one a record of chronicle's (this file's or another's in the same
// folders) holds; "" when the folders were there before chronicle.
func (a *applier) createdFolder(path string) (string, error) {
	if rec := a.st.FileAt(path); rec != nil && rec.Folder != "" {
		return rec.Folder, nil
	}
	dir := filepath.Dir(path)
	for _, rec := range a.st.Files {
		if rec.Folder != "" && within(dir, rec.Folder) {
			return rec.Folder, nil
		}
	}
	top := ""
	for d := dir; ; d = filepath.Dir(d) {
		_, err := a.sys.Lstat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			top = d
		case err != nil:
			return "", err
		default:
			return top, nil
		}
		if filepath.Dir(d) == d {
			return top, nil
		}
	}
}

// within reports whether dir is folder or inside it.
func within(dir, folder string) bool {
	rel, err := filepath.Rel(folder, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// removeOwnedFile removes chronicle's file as the plan saw it, after a
// backup, and forgets it.
func (a *applier) removeOwnedFile(c plan.Change) error {
	path := c.File.Path
	if c.Before.Kind != observe.Absent {
		now, err := a.sys.ReadVersion(path)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Address, err)
		}
		if now.Exists && toolfile.Hash(now.Data) != c.Before.Hash {
			return &changedError{addr: c.Address, path: path, before: *c.Before, now: observe.Observation{Kind: observe.File, Hash: toolfile.Hash(now.Data)}}
		}
		if now.Exists {
			if err := a.backupBytes(path, now.Data, true); err != nil {
				return fmt.Errorf("%s: %w", c.Address, err)
			}
			if err := a.sys.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%s: %w", c.Address, err)
			}
		}
	}
	a.st.ForgetFile(c.Address)
	a.pruneFolders(filepath.Dir(path), c.File.Folder)
	return nil
}

// backupBytes adds the bytes of path as read to the backup set.
func (a *applier) backupBytes(path string, data []byte, existed bool) error {
	a.backupsMu.Lock()
	defer a.backupsMu.Unlock()
	return a.backups.AddBytes(path, data, modeOf(a.sys, path), existed)
}

// pruneFolders removes, from dir up to folder (the topmost one chronicle
// created; "" for none), each folder nothing is left in: the last item of
// a folder chronicle created takes the folder with it.
func (a *applier) pruneFolders(dir, folder string) {
	if folder == "" {
		return
	}
	for d := dir; within(d, folder); d = filepath.Dir(d) {
		if !a.removeEmptyFolder(d) || d == folder {
			return
		}
	}
}

// removeEmptyFolder removes the folder chronicle created for an item's
// file once the file is gone, when nothing else is in it: anything the
// user put there keeps it.
func (a *applier) removeEmptyFolder(dir string) bool {
	entries, err := a.sys.ReadDir(dir)
	return err == nil && len(entries) == 0 && a.sys.Remove(dir) == nil // an empty folder left behind loses nothing
}

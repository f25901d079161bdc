package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Install atomically replaces the content of path with data, but only while
// path is still the version the caller read (expect; a version that does
// not exist: no file at all): a compare-and-swap on a file. The data is
// written to a temporary file beside the target (through a symlink: the
// link stays), given the old file's mode, owner and group (perm for a new
// file), synced, and then exchanged with the target in one step (Linux:
// renameat2 RENAME_EXCHANGE, for a new file RENAME_NOREPLACE; macOS:
// renamex_np RENAME_SWAP and RENAME_EXCL). The exchange hands back
// the file it displaced. When that is not the one the caller read — another
// program replaced it since (a different inode, checked in one stat) or
// rewrote it in place (different bytes) — the two are exchanged back at
// once, so that program's version is what the file holds, and Install
// reports installed false with that version, for the caller to edit again.
// Another program's version is out of place only between two system calls.
//
// Where the platform or filesystem cannot exchange (Windows and the other
// systems, some FUSE and network mounts), the content is compared just before a plain
// rename: a write by another program between the two is lost, and exact
// is false.
func Install(path string, data []byte, perm fs.FileMode, expect Version) (installed bool, now Version, exact bool, err error) {
	target, err := resolve(path)
	if err != nil {
		return false, Version{}, false, err
	}
	info, statErr := os.Stat(target)
	if statErr == nil {
		perm = info.Mode().Perm()
	}
	dir := filepath.Dir(target)
	// Only apply installs, one at a time per file under the state lock:
	// a temporary file of target's is what a killed install left.
	removeLeftovers(target)
	tmp, err := os.CreateTemp(dir, tempPattern(target))
	if err != nil {
		return false, Version{}, false, fmt.Errorf("%s: %w", path, err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName)
	fail := func(err error) (bool, Version, bool, error) {
		tmp.Close()
		return false, Version{}, false, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fail(err)
	}
	ownErr := newOwner(tmp, dir)
	if statErr == nil {
		ownErr = keepOwner(tmp, info)
	}
	if ownErr != nil {
		return fail(fmt.Errorf("keeping the file's owner: %w", ownErr))
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if !expect.Exists {
		err := renameNoReplace(tmpName, target)
		switch {
		case err == nil:
			return true, Version{}, true, syncDir(dir)
		case !errors.Is(err, fs.ErrExist):
			return plainRename(path, tmpName, target, expect)
		}
		// A file appeared: exchange with it, then put it back below.
	}
	// A stat just before the exchange: another program's write found here
	// costs nothing, while one found after the exchange means its version
	// was out of place for a moment.
	if !expect.unchanged(target) {
		now, err := ReadVersion(target)
		return false, now, true, err
	}
	if err := exchange(tmpName, target); err != nil {
		if errors.Is(err, fs.ErrNotExist) && expect.Exists {
			return false, Version{}, true, nil // removed since
		}
		return plainRename(path, tmpName, target, expect)
	}
	if expect.Exists {
		if st, err := os.Lstat(tmpName); err == nil && idOf(st) == expect.id {
			old, err := os.ReadFile(tmpName)
			if err == nil && bytes.Equal(old, expect.Data) {
				return true, Version{Exists: true, Data: old, id: expect.id}, true, syncDir(dir)
			}
		}
	}
	// Another program's version was displaced: give it its place back
	// first, and only then look at it.
	if err := exchange(tmpName, target); err != nil {
		return true, Version{}, true, fmt.Errorf("%s: another program wrote the file meanwhile and putting its version back failed (it is at %s): %w", path, tmpName, err)
	}
	if back, err := os.ReadFile(tmpName); err == nil && !bytes.Equal(back, data) {
		// It wrote again between the two exchanges: that newest version
		// is now in the temporary file. Put it in place too.
		_ = exchange(tmpName, target)
	}
	now, err = ReadVersion(target)
	return false, now, true, err
}

// plainRename is Install's fallback where there is no atomic exchange.
func plainRename(path, tmpName, target string, expect Version) (bool, Version, bool, error) {
	now, err := ReadVersion(target)
	if err != nil {
		return false, Version{}, false, err
	}
	if now.Exists != expect.Exists || !bytes.Equal(now.Data, expect.Data) {
		return false, now, false, nil
	}
	if err := os.Rename(tmpName, target); err != nil {
		return false, now, false, fmt.Errorf("%s: %w", path, err)
	}
	return true, now, false, syncDir(filepath.Dir(target))
}

// WriteInPlace rewrites the content of the existing file at path without
// replacing the file, so hard links to it stay joined. It is not atomic: a
// crash can leave the file half-written, so callers back it up first.
func WriteInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// RenameNew renames oldpath to newpath only when nothing is at newpath. On
// Linux and macOS the check and the rename are one atomic step
// (RENAME_NOREPLACE, RENAME_EXCL); elsewhere a file appearing between the
// two can still be replaced.
func RenameNew(oldpath, newpath string) error {
	err := renameNoReplace(oldpath, newpath)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	if _, err := os.Lstat(newpath); err == nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: fs.ErrExist}
	}
	return os.Rename(oldpath, newpath)
}

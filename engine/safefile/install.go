package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Install atomically puts data at path and returns what it displaced. The
// data is written to a temporary file beside the target (through a symlink:
// the link stays), given the old file's mode, owner and group (perm for a
// new file), synced, and then:
//
//   - exchanged with the old file in one step (renameat2 RENAME_EXCHANGE),
//     after which the temporary name holds exactly the bytes that were
//     replaced — returned with exact set, so the caller can tell whether
//     another program wrote the file since the caller read it;
//   - for a new file, renamed into place only if still nothing is there
//     (RENAME_NOREPLACE); when a file appeared meanwhile, it is exchanged.
//
// Where the platform or filesystem cannot exchange (other systems, some
// FUSE and network mounts), the old content is read and the temporary file
// renamed over it: a write by another program between the two is lost, and
// exact is false.
func Install(path string, data []byte, perm fs.FileMode) (existed bool, displaced []byte, exact bool, err error) {
	target, err := resolve(path)
	if err != nil {
		return false, nil, false, err
	}
	info, statErr := os.Stat(target)
	existed = statErr == nil
	if existed {
		perm = info.Mode().Perm()
	}
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".chronicle-*")
	if err != nil {
		return false, nil, false, fmt.Errorf("%s: %w", path, err)
	}
	tmpName := tmp.Name()
	fail := func(err error) (bool, []byte, bool, error) {
		tmp.Close()
		os.Remove(tmpName)
		return false, nil, false, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fail(err)
	}
	if existed {
		if err := keepOwner(tmp, info); err != nil {
			return fail(fmt.Errorf("keeping the file's owner: %w", err))
		}
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	defer os.Remove(tmpName)
	if !existed {
		err := renameNoReplace(tmpName, target)
		if err == nil {
			return false, nil, true, syncDir(dir)
		}
		if !errors.Is(err, fs.ErrExist) {
			return plainRename(path, tmpName, target, false)
		}
		// A file appeared since: exchange with it below.
	}
	if err := exchange(tmpName, target); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			// Removed since: nothing is displaced.
			if err := os.Rename(tmpName, target); err != nil {
				return false, nil, false, fmt.Errorf("%s: %w", path, err)
			}
			return false, nil, true, syncDir(dir)
		}
		return plainRename(path, tmpName, target, true)
	}
	old, err := os.ReadFile(tmpName)
	if err != nil {
		return true, nil, false, fmt.Errorf("%s: reading the displaced content: %w", path, err)
	}
	return true, old, true, syncDir(dir)
}

// plainRename is Install's fallback where there is no atomic exchange.
func plainRename(path, tmpName, target string, existed bool) (bool, []byte, bool, error) {
	old, err := os.ReadFile(target)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, nil, false, fmt.Errorf("%s: %w", path, err)
	}
	existed = err == nil
	if err := os.Rename(tmpName, target); err != nil {
		return false, nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return existed, old, false, syncDir(filepath.Dir(target))
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
// Linux the check and the rename are one atomic step (RENAME_NOREPLACE);
// elsewhere a file appearing between the two can still be replaced.
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

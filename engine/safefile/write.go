package safefile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile atomically replaces the file at path with data. An existing
// file keeps its mode (and, run as root, its owner); a new one gets perm
// (and, run as root, its folder's owner: InheritOwner). When path is a symlink (a
// dotfiles checkout, say) the link's target is written and the link stays.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	info, statErr := os.Stat(target)
	if statErr == nil {
		perm = info.Mode().Perm()
	}
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, tempPattern(target))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	tmpName := tmp.Name()
	cleanup := func(err error) error {
		tmp.Close()
		os.Remove(tmpName)
		return fmt.Errorf("%s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return cleanup(err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return cleanup(err)
	}
	// Run as root, the file keeps its owner and a new one gets its
	// folder's (InheritOwner); anyone else owns what they write.
	switch {
	case statErr != nil:
		err = newOwner(tmp, dir)
	case os.Geteuid() == 0:
		err = keepOwner(tmp, info)
	}
	if err != nil {
		return cleanup(fmt.Errorf("keeping the file's owner: %w", err))
	}
	if err := tmp.Sync(); err != nil {
		return cleanup(err)
	}
	if err := tmp.Close(); err != nil {
		return cleanup(err)
	}
	if err := os.Rename(tmpName, target); err != nil {
		os.Remove(tmpName)
		return fmt.Errorf("%s: %w", path, err)
	}
	return syncDir(dir)
}

// resolve follows symlinks at path so the real file is replaced. A path that
// does not exist yet is returned as is.
func resolve(path string) (string, error) {
	info, err := os.Lstat(path)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("%s is a symlink whose target cannot be reached: %w", path, err)
	}
	return target, nil
}

// syncDir makes a rename durable. Some filesystems refuse to sync a
// directory; that is not a reason to fail a write that already happened.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	_ = d.Sync()
	return nil
}

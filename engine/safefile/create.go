package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// The functions below create files and folders as the os package does,
// each new one then given its folder's owner (InheritOwner): the way
// chronicle creates anything under a home.

// MkdirAll is os.MkdirAll; every folder it creates inherits its owner.
func MkdirAll(path string, perm fs.FileMode) error {
	var missing []string
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		missing = append(missing, p)
		if filepath.Dir(p) == p {
			break
		}
	}
	if err := os.MkdirAll(path, perm); err != nil {
		return err
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := InheritOwner(missing[i]); err != nil {
			return err
		}
	}
	return nil
}

// Mkdir is os.Mkdir; the folder inherits its owner.
func Mkdir(path string, perm fs.FileMode) error {
	if err := os.Mkdir(path, perm); err != nil {
		return err
	}
	return InheritOwner(path)
}

// MkdirTemp is os.MkdirTemp; the folder inherits its owner.
func MkdirTemp(dir, pattern string) (string, error) {
	name, err := os.MkdirTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	if err := InheritOwner(name); err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// Symlink is os.Symlink; the link inherits its owner.
func Symlink(oldname, newname string) error {
	if err := os.Symlink(oldname, newname); err != nil {
		return err
	}
	return InheritOwner(newname)
}

// OpenFile is os.OpenFile; a file it creates inherits its owner.
func OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	_, statErr := os.Lstat(name)
	f, err := os.OpenFile(name, flag, perm)
	if err != nil || flag&os.O_CREATE == 0 || !errors.Is(statErr, fs.ErrNotExist) {
		return f, err
	}
	if err := InheritOwner(name); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// InheritOwnerTree gives everything under root (root included) its
// folder's owner: for a tree another library wrote (a git checkout).
func InheritOwnerTree(root string) error {
	return filepath.WalkDir(root, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return InheritOwner(path)
	})
}

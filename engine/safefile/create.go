package safefile

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// The functions below create files and folders as the os package does,
// each new one then given its folder's owner (InheritOwner): the way
// chronicle creates anything under a home.

// MkdirAll is os.MkdirAll; every folder it creates inherits its owner
// (made as Mkdir makes it).
func MkdirAll(path string, perm fs.FileMode) error {
	if os.Geteuid() != 0 {
		return os.MkdirAll(path, perm)
	}
	path = filepath.Clean(path)
	if info, err := os.Stat(path); err == nil {
		if info.IsDir() {
			return nil
		}
		return &fs.PathError{Op: "mkdir", Path: path, Err: syscall.ENOTDIR}
	}
	if parent := filepath.Dir(path); parent != path {
		if err := MkdirAll(parent, perm); err != nil {
			return err
		}
	}
	err := Mkdir(path, perm)
	if errors.Is(err, fs.ErrExist) {
		// Made meanwhile by another goroutine or program: made as Mkdir
		// makes it, it has its owner already.
		if info, serr := os.Stat(path); serr == nil && info.IsDir() {
			return nil
		}
	}
	return err
}

// Mkdir is os.Mkdir; the folder inherits its owner. Run as root, the
// folder is made under a temporary name, given its owner, and only then
// renamed into place (never replacing anything): a folder that exists
// has its owner already, so what another goroutine makes in it at that
// moment inherits the right one (apply imports skills in parallel, each
// making ~/.chronicle/skills first).
func Mkdir(path string, perm fs.FileMode) error {
	if os.Geteuid() != 0 {
		return os.Mkdir(path, perm)
	}
	dir, base := filepath.Split(filepath.Clean(path))
	var tmp string
	for {
		tmp = filepath.Join(dir, "."+base+".mkdir-"+strconv.FormatUint(rand.Uint64(), 36))
		err := os.Mkdir(tmp, perm)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return &fs.PathError{Op: "mkdir", Path: path, Err: errors.Unwrap(err)}
		}
	}
	if err := InheritOwner(tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := RenameNew(tmp, path); err != nil {
		os.Remove(tmp)
		if errors.Is(err, fs.ErrExist) {
			return &fs.PathError{Op: "mkdir", Path: path, Err: fs.ErrExist}
		}
		return err
	}
	return nil
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

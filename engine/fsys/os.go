package fsys

import (
	"fmt"
	"io/fs"
	"os"

	"github.com/chronicle-dev/chronicle/engine/safefile"
)

// OS is the real filesystem.
type OS struct{}

var _ System = OS{}

func (OS) Lstat(name string) (fs.FileInfo, error)     { return os.Lstat(name) }
func (OS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (OS) ReadFile(name string) ([]byte, error)       { return os.ReadFile(name) }
func (OS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
func (OS) Readlink(name string) (string, error)       { return os.Readlink(name) }
func (OS) Open(name string) (fs.File, error)          { return os.Open(name) }

func (OS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return safefile.WriteFile(name, data, perm)
}

func (OS) WriteNew(name string, data []byte, perm fs.FileMode) error {
	f, err := safefile.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	return f.Close()
}

func (OS) ReadVersion(name string) (Version, error) { return safefile.ReadVersion(name) }

func (OS) Install(name string, data []byte, perm fs.FileMode, expect Version) (Installed, error) {
	done, now, exact, err := safefile.Install(name, data, perm, expect)
	return Installed{Done: done, Now: now, Exact: exact}, err
}

func (OS) WriteInPlace(name string, data []byte) error { return safefile.WriteInPlace(name, data) }

// What OS creates gets its folder's owner when chronicle runs as root
// (safefile.InheritOwner).

func (OS) Mkdir(name string, perm fs.FileMode) error { return safefile.Mkdir(name, perm) }
func (OS) MkdirAll(name string, perm fs.FileMode) error {
	return safefile.MkdirAll(name, perm)
}
func (OS) MkdirTemp(dir, pattern string) (string, error) { return safefile.MkdirTemp(dir, pattern) }
func (OS) Symlink(oldname, newname string) error         { return safefile.Symlink(oldname, newname) }
func (OS) Rename(oldpath, newpath string) error          { return os.Rename(oldpath, newpath) }
func (OS) RenameNew(oldpath, newpath string) error {
	return safefile.RenameNew(oldpath, newpath)
}
func (OS) Remove(name string) error                  { return os.Remove(name) }
func (OS) RemoveAll(name string) error               { return os.RemoveAll(name) }
func (OS) Chmod(name string, mode fs.FileMode) error { return os.Chmod(name, mode) }
func (OS) ReplaceDir(staged, current, aside string) error {
	return safefile.ReplaceDir(staged, current, aside)
}

func (OS) InheritOwnerTree(root string) error { return safefile.InheritOwnerTree(root) }

func (OS) Sync(path string) error { return safefile.SyncFS(path) }

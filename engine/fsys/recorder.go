package fsys

import (
	"io/fs"
	"sync"
)

// An Op is one operation a Recorder saw.
type Op struct {
	Name string // the method: "WriteFile", "Install", "Symlink", …
	Path string
	// To is the second path of Rename, Symlink (the link) and ReplaceDir
	// (current).
	To string
}

// A Recorder is a System for tests: it passes every operation to System,
// records it, and first calls Before, which may change the filesystem the
// way another program would, or return an error to fail the operation
// without doing it.
type Recorder struct {
	System System
	// Before, when set, is called before each operation.
	Before func(Op) error

	mu  sync.Mutex
	ops []Op
}

var _ System = (*Recorder)(nil)

// Ops returns the operations seen so far.
func (r *Recorder) Ops() []Op {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Op(nil), r.ops...)
}

// Writes returns the operations that changed the filesystem.
func (r *Recorder) Writes() []Op {
	var out []Op
	for _, op := range r.Ops() {
		switch op.Name {
		case "Lstat", "Stat", "ReadFile", "ReadDir", "Readlink", "Open", "ReadVersion":
		default:
			out = append(out, op)
		}
	}
	return out
}

func (r *Recorder) see(name, path, to string) error {
	op := Op{Name: name, Path: path, To: to}
	r.mu.Lock()
	r.ops = append(r.ops, op)
	before := r.Before
	r.mu.Unlock()
	if before != nil {
		return before(op)
	}
	return nil
}

func (r *Recorder) Lstat(name string) (fs.FileInfo, error) {
	if err := r.see("Lstat", name, ""); err != nil {
		return nil, err
	}
	return r.System.Lstat(name)
}

func (r *Recorder) Stat(name string) (fs.FileInfo, error) {
	if err := r.see("Stat", name, ""); err != nil {
		return nil, err
	}
	return r.System.Stat(name)
}

func (r *Recorder) ReadFile(name string) ([]byte, error) {
	if err := r.see("ReadFile", name, ""); err != nil {
		return nil, err
	}
	return r.System.ReadFile(name)
}

func (r *Recorder) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := r.see("ReadDir", name, ""); err != nil {
		return nil, err
	}
	return r.System.ReadDir(name)
}

func (r *Recorder) Readlink(name string) (string, error) {
	if err := r.see("Readlink", name, ""); err != nil {
		return "", err
	}
	return r.System.Readlink(name)
}

func (r *Recorder) Open(name string) (fs.File, error) {
	if err := r.see("Open", name, ""); err != nil {
		return nil, err
	}
	return r.System.Open(name)
}

func (r *Recorder) WriteFile(name string, data []byte, perm fs.FileMode) error {
	if err := r.see("WriteFile", name, ""); err != nil {
		return err
	}
	return r.System.WriteFile(name, data, perm)
}

func (r *Recorder) WriteNew(name string, data []byte, perm fs.FileMode) error {
	if err := r.see("WriteNew", name, ""); err != nil {
		return err
	}
	return r.System.WriteNew(name, data, perm)
}

func (r *Recorder) ReadVersion(name string) (Version, error) {
	if err := r.see("ReadVersion", name, ""); err != nil {
		return Version{}, err
	}
	return r.System.ReadVersion(name)
}

func (r *Recorder) Install(name string, data []byte, perm fs.FileMode, expect Version) (Installed, error) {
	if err := r.see("Install", name, ""); err != nil {
		return Installed{}, err
	}
	return r.System.Install(name, data, perm, expect)
}

func (r *Recorder) WriteInPlace(name string, data []byte) error {
	if err := r.see("WriteInPlace", name, ""); err != nil {
		return err
	}
	return r.System.WriteInPlace(name, data)
}

func (r *Recorder) Mkdir(name string, perm fs.FileMode) error {
	if err := r.see("Mkdir", name, ""); err != nil {
		return err
	}
	return r.System.Mkdir(name, perm)
}

func (r *Recorder) MkdirAll(name string, perm fs.FileMode) error {
	if err := r.see("MkdirAll", name, ""); err != nil {
		return err
	}
	return r.System.MkdirAll(name, perm)
}

func (r *Recorder) MkdirTemp(dir, pattern string) (string, error) {
	if err := r.see("MkdirTemp", dir, ""); err != nil {
		return "", err
	}
	return r.System.MkdirTemp(dir, pattern)
}

func (r *Recorder) Symlink(oldname, newname string) error {
	if err := r.see("Symlink", oldname, newname); err != nil {
		return err
	}
	return r.System.Symlink(oldname, newname)
}

func (r *Recorder) Rename(oldpath, newpath string) error {
	if err := r.see("Rename", oldpath, newpath); err != nil {
		return err
	}
	return r.System.Rename(oldpath, newpath)
}

func (r *Recorder) RenameNew(oldpath, newpath string) error {
	if err := r.see("RenameNew", oldpath, newpath); err != nil {
		return err
	}
	return r.System.RenameNew(oldpath, newpath)
}

func (r *Recorder) Remove(name string) error {
	if err := r.see("Remove", name, ""); err != nil {
		return err
	}
	return r.System.Remove(name)
}

func (r *Recorder) RemoveAll(name string) error {
	if err := r.see("RemoveAll", name, ""); err != nil {
		return err
	}
	return r.System.RemoveAll(name)
}

func (r *Recorder) Chmod(name string, mode fs.FileMode) error {
	if err := r.see("Chmod", name, ""); err != nil {
		return err
	}
	return r.System.Chmod(name, mode)
}

func (r *Recorder) ReplaceDir(staged, current, aside string) error {
	if err := r.see("ReplaceDir", staged, current); err != nil {
		return err
	}
	return r.System.ReplaceDir(staged, current, aside)
}

func (r *Recorder) InheritOwnerTree(root string) error {
	if err := r.see("InheritOwnerTree", root, ""); err != nil {
		return err
	}
	return r.System.InheritOwnerTree(root)
}

func (r *Recorder) Sync(path string) error {
	if err := r.see("Sync", path, ""); err != nil {
		return err
	}
	return r.System.Sync(path)
}

package fsys

import (
	"io/fs"
)

// A Reader looks at the filesystem without changing it.
type Reader interface {
	Lstat(name string) (fs.FileInfo, error)
	Stat(name string) (fs.FileInfo, error)
	ReadFile(name string) ([]byte, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	Readlink(name string) (string, error)
	Open(name string) (fs.File, error)
}

// A System is a Reader that also changes the filesystem.
type System interface {
	Reader
	// WriteFile atomically replaces the content of name (a temporary file
	// beside it, synced, renamed over it). An existing file keeps its mode;
	// a new one gets perm. A symlink is written through: the link stays.
	WriteFile(name string, data []byte, perm fs.FileMode) error
	// WriteNew creates name with data and perm; it fails when name exists.
	WriteNew(name string, data []byte, perm fs.FileMode) error
	// Install atomically puts data at name — through a symlink, keeping an
	// existing file's mode, owner and group — and returns what it
	// displaced. A new file gets perm.
	Install(name string, data []byte, perm fs.FileMode) (Displaced, error)
	// WriteInPlace rewrites the content of the existing file name without
	// replacing it, so that hard links to it stay joined. It is not atomic.
	WriteInPlace(name string, data []byte) error
	Mkdir(name string, perm fs.FileMode) error
	MkdirAll(name string, perm fs.FileMode) error
	MkdirTemp(dir, pattern string) (string, error)
	Symlink(oldname, newname string) error
	Rename(oldpath, newpath string) error
	// RenameNew renames oldpath to newpath only when nothing is at newpath
	// (not even an empty folder), atomically where the platform allows.
	RenameNew(oldpath, newpath string) error
	Remove(name string) error
	RemoveAll(name string) error
	Chmod(name string, mode fs.FileMode) error
	// ReplaceDir puts the folder staged in place of the folder current,
	// atomically where the platform allows (current's old content is then
	// at staged), else by moving current to aside first.
	ReplaceDir(staged, current, aside string) error
}

// Displaced is what Install replaced.
type Displaced struct {
	// Existed reports whether a file was there.
	Existed bool
	// Data is the content that was replaced.
	Data []byte
	// Exact reports whether Data is exactly what the exchange displaced.
	// Where the platform cannot exchange atomically it is false: Data was
	// read just before a plain rename, and a write in between is lost.
	Exact bool
}

// readOnly hides every method of a System but the Reader's.
type readOnly struct{ r Reader }

// ReadOnly returns r restricted to reading: a type assertion to System
// fails on the result.
func ReadOnly(r Reader) Reader { return readOnly{r} }

func (o readOnly) Lstat(name string) (fs.FileInfo, error)     { return o.r.Lstat(name) }
func (o readOnly) Stat(name string) (fs.FileInfo, error)      { return o.r.Stat(name) }
func (o readOnly) ReadFile(name string) ([]byte, error)       { return o.r.ReadFile(name) }
func (o readOnly) ReadDir(name string) ([]fs.DirEntry, error) { return o.r.ReadDir(name) }
func (o readOnly) Readlink(name string) (string, error)       { return o.r.Readlink(name) }
func (o readOnly) Open(name string) (fs.File, error)          { return o.r.Open(name) }

package fsys

import (
	"io/fs"

	"github.com/chronicle-dev/chronicle/engine/safefile"
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
	// ReadVersion reads a file and the identity of the file read, for
	// Install (a missing file is a Version that does not exist).
	ReadVersion(name string) (Version, error)
	// Install atomically replaces the content of name with data while name
	// is still the version expect (one that does not exist: no file),
	// through a symlink, keeping an existing file's mode, owner and group
	// (a new file gets perm). When another program replaced or rewrote the
	// file since, its version is left in place and returned.
	Install(name string, data []byte, perm fs.FileMode, expect Version) (Installed, error)
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
	// InheritOwnerTree gives everything under root (root included) its
	// folder's owner when chronicle runs as root, as what System creates
	// gets: for a tree another library wrote there (go-git's checkout).
	InheritOwnerTree(root string) error
	// Sync makes everything written to the filesystem holding path
	// durable: one flush after many small writes that did not sync each
	// (skill copies, snapshot indexes).
	Sync(path string) error
}

// A Version is a file's content as read, with the identity of the file it
// was read from.
type Version = safefile.Version

// Installed says what Install did.
type Installed struct {
	// Done reports whether the data was put in place: the file was still
	// the version expected.
	Done bool
	// Now is the version the file holds when Done is false: another
	// program's, to edit again.
	Now Version
	// Exact reports whether the check was atomic. Where the platform
	// cannot exchange, it is a compare before a plain rename, and a write
	// landing between the two is lost.
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

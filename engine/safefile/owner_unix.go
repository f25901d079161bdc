//go:build unix

package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// keepOwner gives f the owner and group of info when they differ from f's,
// so that replacing a file never changes who owns it.
func keepOwner(f *os.File, info fs.FileInfo) error {
	want, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	mine, err := f.Stat()
	if err != nil {
		return err
	}
	have, ok := mine.Sys().(*syscall.Stat_t)
	if !ok || (have.Uid == want.Uid && have.Gid == want.Gid) {
		return nil
	}
	return f.Chown(int(want.Uid), int(want.Gid))
}

// newOwner gives f, a new file about to be renamed to a new name in dir,
// the owner and group of dir when chronicle runs as root (see
// InheritOwner).
func newOwner(f *os.File, dir string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	return keepOwner(f, info)
}

// InheritOwner gives path (a link itself, not its target) the owner and
// group of the folder holding it, when chronicle runs as root and they
// differ: run as root on a user's home (sudo chronicle apply), what
// chronicle creates there belongs to the home's owner, as the files it
// replaces keep theirs. Run as anyone else, nothing changes hands (a new
// file is the user's already).
func InheritOwner(path string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	parent, err := os.Stat(filepath.Dir(path))
	if err != nil {
		return err
	}
	want, ok := parent.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	have, ok := info.Sys().(*syscall.Stat_t)
	if !ok || (have.Uid == want.Uid && have.Gid == want.Gid) {
		return nil
	}
	return os.Lchown(path, int(want.Uid), int(want.Gid))
}

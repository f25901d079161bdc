//go:build unix

package safefile

import (
	"io/fs"
	"os"
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

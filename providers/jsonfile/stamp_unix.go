//go:build unix

package jsonfile

import (
	"os"
	"syscall"
)

// stamp returns the file's inode: a file replaced by a rename is another
// file even when its size and time match.
func stamp(info os.FileInfo) (uint64, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Ino), true
}

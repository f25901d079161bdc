//go:build unix

package toolfile

import (
	"io/fs"
	"syscall"
)

func unlinked(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 0
}

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package hashcache

import (
	"io/fs"
	"syscall"
)

// keyOf is the identity of a file from its stat.
func keyOf(info fs.FileInfo) (key, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return key{}, false
	}
	mtime, ctime := statTimes(st)
	return key{dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size, mtime: mtime, ctime: ctime}, true
}

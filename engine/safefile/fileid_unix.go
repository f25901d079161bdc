//go:build unix

package safefile

import (
	"io/fs"
	"syscall"
)

// A fileID identifies a file: its device and inode.
type fileID struct{ dev, ino uint64 }

func idOf(info fs.FileInfo) fileID {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return fileID{uint64(st.Dev), uint64(st.Ino)}
	}
	return fileID{}
}

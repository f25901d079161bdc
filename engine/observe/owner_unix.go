//go:build unix

package observe

import (
	"io/fs"
	"syscall"
)

func ownership(info fs.FileInfo) (links uint64, uid, gid int) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink), int(st.Uid), int(st.Gid)
	}
	return 1, -1, -1
}

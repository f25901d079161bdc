package safefile

import (
	"os"

	"golang.org/x/sys/unix"
)

// SyncFS makes everything written to the filesystem holding path durable
// (syncfs): one call after many small writes instead of an fsync each.
func SyncFS(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}

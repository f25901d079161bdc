//go:build !linux

package safefile

// SyncFS makes what was written under path durable where the platform
// allows: without syncfs, it syncs the folder itself (its entries); the
// files' contents are left to the system.
func SyncFS(path string) error { return syncDir(path) }

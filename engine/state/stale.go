package state

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// RemoveStale removes the temporary files a Save killed before its rename
// left beside the state at path (.state.json.chronicle-<digits>, and the
// same for its backup): no later Save reuses them, so without this they
// pile up. Call it holding the state lock, with the time the lock was
// taken: every Save runs under that lock, so a temporary file older than
// the current holder belongs to a run that has ended. Only regular files of
// exactly that pattern are removed, through sys; it returns their paths.
func RemoveStale(sys fsys.System, path string, lockedAt time.Time) []string {
	dir := filepath.Dir(path)
	entries, err := sys.ReadDir(dir)
	if err != nil {
		return nil
	}
	prefixes := []string{
		"." + filepath.Base(path) + ".chronicle-",
		"." + filepath.Base(path) + BackupSuffix + ".chronicle-",
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !tempOf(e.Name(), prefixes) {
			continue
		}
		info, err := e.Info()
		if err != nil || !info.ModTime().Before(lockedAt) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if sys.Remove(p) == nil {
			removed = append(removed, p)
		}
	}
	return removed
}

// tempOf reports whether name is one of prefixes followed by the digits
// os.CreateTemp puts in place of its "*".
func tempOf(name string, prefixes []string) bool {
	for _, p := range prefixes {
		rest, ok := strings.CutPrefix(name, p)
		if ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

package state

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// TestRemoveStale: only the temporary files of an interrupted Save of this
// state (or its backup) that are older than the lock holder go; anything
// else beside the state stays.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	old := time.Now().Add(-time.Hour)
	lockedAt := time.Now().Add(-time.Minute)
	write := func(name string, mtime time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := []string{
		write(".state.json.chronicle-12345", old),
		write(".state.json.backup.chronicle-987", old),
	}
	kept := []string{
		write("state.json", old),
		write("state.json.backup", old),
		write(".state.json.chronicle-555", time.Now()), // newer than the holder
		write(".state.json.chronicle-12x", old),        // not CreateTemp's digits
		write(".state.json.chronicle-", old),
		write(".hub.token.chronicle-1", old), // another file's temporary
		write(".mine.state.json.chronicle-1", old),
	}
	if err := os.Mkdir(filepath.Join(dir, ".state.json.chronicle-77"), 0o700); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, filepath.Join(dir, ".state.json.chronicle-77"))
	outside := filepath.Join(t.TempDir(), "target")
	if err := os.WriteFile(outside, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, ".state.json.chronicle-88")); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, filepath.Join(dir, ".state.json.chronicle-88"), outside)

	removed := RemoveStale(fsys.OS{}, path, lockedAt)
	slices.Sort(removed)
	slices.Sort(stale)
	if !slices.Equal(removed, stale) {
		t.Errorf("removed %q, want %q", removed, stale)
	}
	for _, p := range stale {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	for _, p := range kept {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
}

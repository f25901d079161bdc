package state

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// A save writes only through the System it is given: its backup, the state
// and their modes, each a write a test can see and fail. A save failed at
// any of them leaves a state file that loads (the one before, or the new
// one), the serial in memory the file's, and the next save succeeds.
func TestSaveThroughWritesOnlyThroughItsSystem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chronicle", "state.json")
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := &fsys.Recorder{System: fsys.OS{}}
	if err := s.SaveThrough(rec, path); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveThrough(rec, path); err != nil {
		t.Fatal(err)
	}
	var writes []string
	for _, op := range rec.Writes() {
		writes = append(writes, op.Name+" "+filepath.Base(op.Path))
	}
	want := []string{
		"MkdirAll chronicle", "WriteFile state.json", "Chmod state.json",
		"MkdirAll chronicle", "WriteFile state.json.backup", "Chmod state.json.backup", "WriteFile state.json", "Chmod state.json",
	}
	if len(writes) != len(want) {
		t.Fatalf("writes %q, want %q", writes, want)
	}
	for i := range want {
		if writes[i] != want[i] {
			t.Fatalf("writes %q, want %q", writes, want)
		}
	}

	crash := errors.New("crashed")
	for i := range 4 {
		before := s.Serial
		n := 0
		failing := &fsys.Recorder{System: fsys.OS{}, Before: func(op fsys.Op) error {
			switch op.Name {
			case "WriteFile", "Chmod", "MkdirAll":
				n++
				if n == i+1 {
					return crash
				}
			}
			return nil
		}}
		if err := s.SaveThrough(failing, path); !errors.Is(err, crash) {
			t.Fatalf("write %d failed: save returned %v", i+1, err)
		}
		on, err := Load(path)
		if err != nil {
			t.Fatalf("write %d failed: the state does not load: %v", i+1, err)
		}
		// The serial in memory is the file's: the one before, or, when
		// only narrowing the new file's mode failed, the new one.
		if on.Serial != s.Serial || (s.Serial != before && s.Serial != before+1) {
			t.Fatalf("write %d failed: the file holds serial %d, the state in memory %d (before the save: %d)", i+1, on.Serial, s.Serial, before)
		}
		if err := s.SaveThrough(fsys.OS{}, path); err != nil {
			t.Fatalf("after write %d failed, the next save: %v", i+1, err)
		}
		if info, _ := os.Stat(path); info.Mode().Perm() != fileMode {
			t.Fatalf("mode %v", info.Mode().Perm())
		}
	}
}

package backup

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestBackupKeepsFiveAndTheOriginal(t *testing.T) {
	home := t.TempDir()
	ch := filepath.Join(home, ".chronicle")
	cfg := filepath.Join(home, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	start := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	for i := 0; i < 7; i++ {
		os.WriteFile(cfg, []byte{byte('a' + i)}, 0o644)
		s := Begin(ch, "apply", start.Add(time.Duration(i)*time.Minute))
		if err := s.Add(cfg); err != nil {
			t.Fatal(err)
		}
	}
	sets, err := List(ch)
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != Keep+1 || sets[0].ID != OriginalID {
		t.Fatalf("got %d sets (first %s), want the original and %d timestamped", len(sets), sets[0].ID, Keep)
	}
	orig := filepath.Join(Dir(ch), OriginalID, sets[0].Files[0].Stored)
	if b, _ := os.ReadFile(orig); string(b) != "a" {
		t.Fatalf("the original backup holds %q, want the first content \"a\"", b)
	}
	info, _ := os.Stat(orig)
	dirInfo, _ := os.Stat(Dir(ch))
	if info.Mode().Perm() != 0o600 || dirInfo.Mode().Perm() != 0o700 {
		t.Fatalf("modes: file %v dir %v, want 0600 and 0700", info.Mode().Perm(), dirInfo.Mode().Perm())
	}
}

func TestRestoreBacksUpFirst(t *testing.T) {
	home := t.TempDir()
	ch := filepath.Join(home, ".chronicle")
	cfg := filepath.Join(home, "settings.json")
	created := filepath.Join(home, "new.json")
	os.WriteFile(cfg, []byte("before"), 0o640)
	s := Begin(ch, "apply", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err := s.Add(cfg); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(created); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cfg, []byte("after"), 0o640)
	os.WriteFile(created, []byte("made by apply"), 0o600)

	undo, err := Restore(ch, s.ID, time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(cfg); string(b) != "before" {
		t.Fatalf("restored content %q", b)
	}
	if info, _ := os.Stat(cfg); info.Mode().Perm() != 0o640 {
		t.Fatalf("restored mode %v", info.Mode().Perm())
	}
	if _, err := os.Stat(created); !os.IsNotExist(err) {
		t.Fatal("a file that did not exist at backup time was not removed")
	}
	if _, err := Restore(ch, undo.ID, time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(cfg); string(b) != "after" {
		t.Fatalf("undoing the restore gave %q, want \"after\"", b)
	}
}

func TestRestoreRefusesDamagedCopyAndBadIDs(t *testing.T) {
	home := t.TempDir()
	ch := filepath.Join(home, ".chronicle")
	cfg := filepath.Join(home, "a.json")
	os.WriteFile(cfg, []byte("x"), 0o644)
	s := Begin(ch, "apply", time.Now())
	s.Add(cfg)
	os.WriteFile(filepath.Join(Dir(ch), s.ID, s.Files[0].Stored), []byte("tampered"), 0o600)
	os.WriteFile(cfg, []byte("current"), 0o644)
	if _, err := Restore(ch, s.ID, time.Now()); err == nil {
		t.Fatal("a damaged copy was restored")
	}
	if b, _ := os.ReadFile(cfg); string(b) != "current" {
		t.Fatal("a refused restore changed the file")
	}
	for _, bad := range []string{"../x", "", "a/b"} {
		if _, err := Restore(ch, bad, time.Now()); err == nil {
			t.Errorf("Restore(%q) accepted", bad)
		}
	}
}

func TestMoveAndPutBack(t *testing.T) {
	home := t.TempDir()
	ch := filepath.Join(home, ".chronicle")
	place := filepath.Join(home, ".claude", "skills", "review")
	os.MkdirAll(place, 0o755)
	os.WriteFile(filepath.Join(place, "SKILL.md"), []byte("the user's own"), 0o644)
	s := Begin(ch, "apply", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err := s.Move(place); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(place); !os.IsNotExist(err) {
		t.Fatal("Move left the directory in place")
	}
	os.Symlink("/somewhere/central/review", place) // what apply puts there
	if _, err := Restore(ch, s.ID, time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(place, "SKILL.md")); string(b) != "the user's own" {
		t.Fatalf("the directory did not come back: %q", b)
	}
	sets, _ := List(ch)
	last := sets[len(sets)-1]
	if last.ID == s.ID || len(last.Files) != 1 || !last.Files[0].Moved {
		t.Fatalf("the link that stood there was not kept in a new set: %+v", last)
	}
}

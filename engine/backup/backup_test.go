package backup

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

func TestBackupKeepsFiveAndTheOriginal(t *testing.T) {
	home := t.TempDir()
	ch := filepath.Join(home, ".chronicle")
	cfg := filepath.Join(home, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	start := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	for i := 0; i < 7; i++ {
		os.WriteFile(cfg, []byte{byte('a' + i)}, 0o644)
		s := Begin(fsys.OS{}, ch, "apply", start.Add(time.Duration(i)*time.Minute))
		if err := s.Add(cfg); err != nil {
			t.Fatal(err)
		}
	}
	sets, err := List(fsys.OS{}, ch)
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
	s := Begin(fsys.OS{}, ch, "apply", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err := s.Add(cfg); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(created); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cfg, []byte("after"), 0o640)
	os.WriteFile(created, []byte("made by apply"), 0o600)

	undo, err := Restore(fsys.OS{}, ch, s.ID, time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC))
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
	if _, err := Restore(fsys.OS{}, ch, undo.ID, time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC)); err != nil {
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
	s := Begin(fsys.OS{}, ch, "apply", time.Now())
	s.Add(cfg)
	os.WriteFile(filepath.Join(Dir(ch), s.ID, s.Files[0].Stored), []byte("tampered"), 0o600)
	os.WriteFile(cfg, []byte("current"), 0o644)
	if _, err := Restore(fsys.OS{}, ch, s.ID, time.Now()); err == nil {
		t.Fatal("a damaged copy was restored")
	}
	if b, _ := os.ReadFile(cfg); string(b) != "current" {
		t.Fatal("a refused restore changed the file")
	}
	for _, bad := range []string{"../x", "", "a/b"} {
		if _, err := Restore(fsys.OS{}, ch, bad, time.Now()); err == nil {
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
	s := Begin(fsys.OS{}, ch, "apply", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err := s.Move(place); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(place); !os.IsNotExist(err) {
		t.Fatal("Move left the directory in place")
	}
	os.Symlink("/somewhere/central/review", place) // what apply puts there
	if _, err := Restore(fsys.OS{}, ch, s.ID, time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(place, "SKILL.md")); string(b) != "the user's own" {
		t.Fatalf("the directory did not come back: %q", b)
	}
	sets, _ := List(fsys.OS{}, ch)
	last := sets[len(sets)-1]
	if last.ID == s.ID || len(last.Files) != 1 || !last.Files[0].Moved {
		t.Fatalf("the link that stood there was not kept in a new set: %+v", last)
	}
}

func TestSetIDsAreUniqueWithinOneSecond(t *testing.T) {
	home := t.TempDir()
	ch := filepath.Join(home, ".chronicle")
	cfg := filepath.Join(home, "a.json")
	os.WriteFile(cfg, []byte("x"), 0o644)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	for i := 0; i < Keep+3; i++ {
		s := Begin(fsys.OS{}, ch, "apply", now) // the very same instant
		if err := s.Add(cfg); err != nil {
			t.Fatal(err)
		}
		sets, _ := List(fsys.OS{}, ch)
		if !hasSet(sets, s.ID) || sets[len(sets)-1].ID != s.ID {
			t.Fatalf("the set just written (%s) was pruned or is not the newest: %v", s.ID, ids(sets))
		}
		for _, id := range ids(sets) {
			if seen[id] && id == s.ID {
				t.Fatalf("set id %s is held by two sets", id)
			}
		}
		seen[s.ID] = true
	}
	sets, _ := List(fsys.OS{}, ch)
	if len(sets) != Keep+1 {
		t.Fatalf("%d sets, want original and %d", len(sets), Keep)
	}
}

func hasSet(sets []*Set, id string) bool {
	for _, s := range sets {
		if s.ID == id {
			return true
		}
	}
	return false
}

func TestMovedSetsSurviveRotationUntilPruned(t *testing.T) {
	home := t.TempDir()
	ch := filepath.Join(home, ".chronicle")
	place := filepath.Join(home, ".claude", "skills", "review")
	os.MkdirAll(place, 0o755)
	os.WriteFile(filepath.Join(place, "SKILL.md"), []byte("the user's own"), 0o644)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	moved := Begin(fsys.OS{}, ch, "apply --replace", start)
	if err := moved.Move(place); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(home, "a.json")
	for i := 1; i <= Keep+2; i++ {
		os.WriteFile(cfg, []byte{byte('a' + i)}, 0o644)
		if err := Begin(fsys.OS{}, ch, "apply", start.Add(time.Duration(i)*time.Hour)).Add(cfg); err != nil {
			t.Fatal(err)
		}
	}
	sets, _ := List(fsys.OS{}, ch)
	if !hasSet(sets, moved.ID) {
		t.Fatalf("the set holding a moved folder was rotated away after %d applies", Keep+2)
	}
	stored := filepath.Join(Dir(ch), moved.ID, moved.Files[0].Stored, "SKILL.md")
	if b, _ := os.ReadFile(stored); string(b) != "the user's own" {
		t.Fatalf("the moved folder is not intact: %q", b)
	}

	// By age: the kept set and old rotating sets go, original stays.
	removed, err := Prune(fsys.OS{}, ch, nil, 30*time.Minute, start.Add(time.Duration(Keep+2)*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	after, _ := List(fsys.OS{}, ch)
	if hasSet(after, moved.ID) || !hasSet(after, OriginalID) || len(after) != 2 {
		t.Fatalf("after prune --older-than 30m: removed %v, left %v", removed, ids(after))
	}
	// original goes only when named; unknown ids remove nothing.
	if _, err := Prune(fsys.OS{}, ch, []string{"nope"}, 0, time.Now()); err == nil {
		t.Fatal("an unknown id was accepted")
	}
	if _, err := Prune(fsys.OS{}, ch, []string{OriginalID}, 0, time.Now()); err != nil {
		t.Fatal(err)
	}
	if final, _ := List(fsys.OS{}, ch); hasSet(final, OriginalID) || len(final) != 1 {
		t.Fatalf("left %v", ids(final))
	}
}

func ids(sets []*Set) []string {
	var out []string
	for _, s := range sets {
		out = append(out, s.ID)
	}
	return out
}

func TestParseAge(t *testing.T) {
	for in, want := range map[string]time.Duration{"30d": 30 * 24 * time.Hour, "36h": 36 * time.Hour, "0d": 0} {
		if got, err := ParseAge(in); err != nil || got != want {
			t.Errorf("ParseAge(%q) = %v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "d", "-3d", "3 days", "3dd"} {
		if _, err := ParseAge(bad); err == nil {
			t.Errorf("ParseAge(%q) accepted", bad)
		}
	}
}

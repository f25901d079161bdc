package state

import (
	"path/filepath"
	"testing"
)

func TestJournalSavesAndDoneClears(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	const addr = `link.everywhere["claude"].skill.pdf`
	in := Intent{Address: addr, Action: "create", Path: "/h/.claude/skills/pdf", Target: "/h/.chronicle/skills/pdf"}
	if err := s.Journal(in); err != nil {
		t.Fatal(err)
	}
	// A crash here: the next run loads the journal.
	after, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Intents) != 1 || after.Intents[0].Time.IsZero() || after.Serial != 1 {
		t.Fatalf("journal after reload: %+v at serial %d, want one timed intent at serial 1", after.Intents, after.Serial)
	}
	for _, c := range []struct {
		want Intent
		ok   bool
	}{
		{Intent{Address: addr, Path: in.Path, Target: in.Target}, true},
		{Intent{Address: addr, Path: in.Path}, true},
		{Intent{Address: addr, Path: in.Path, Target: "/elsewhere"}, false},
		{Intent{Address: "skill.pdf", Path: in.Path}, false},
		{Intent{Address: addr, KeyPath: []string{"x"}}, false},
	} {
		if got := after.Intended(c.want); got != c.ok {
			t.Errorf("Intended(%+v) = %v, want %v", c.want, got, c.ok)
		}
	}

	after.Links = append(after.Links, Link{Address: addr, Path: in.Path, Target: in.Target, Mode: ModeSymlink})
	after.Done(addr)
	if err := after.Save(path); err != nil {
		t.Fatal(err)
	}
	final, _ := Load(path)
	if len(final.Intents) != 0 || len(final.Links) != 1 || final.Serial != 2 {
		t.Fatalf("after Done and Save: %d intents, %d links, serial %d; want 0, 1, 2", len(final.Intents), len(final.Links), final.Serial)
	}
}

func TestJournalNeedsAFile(t *testing.T) {
	if err := New().Journal(Intent{Address: "skill.pdf"}); err == nil {
		t.Fatal("journalling a state without a file succeeded")
	}
}

package snapshot

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

func TestRestoreKeepsLinksWorking(t *testing.T) {
	base := t.TempDir()
	root, store := filepath.Join(base, "snapshots"), filepath.Join(base, "skills")
	central := filepath.Join(store, "pdf")
	writeSkill(t, central, "v1")
	v1, _, err := Take(fsys.OS{}, root, "pdf", central, KindImported, Meta{})
	if err != nil {
		t.Fatal(err)
	}
	writeSkill(t, central, "edited in place")
	edited := hash(t, central)
	link := filepath.Join(base, "tool", "skills", "pdf")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(central, link); err != nil {
		t.Fatal(err)
	}

	if err := Restore(fsys.OS{}, root, "pdf", "1", store); err != nil {
		t.Fatal(err)
	}
	if hash(t, central) != v1.Hash {
		t.Fatalf("the store now hashes %s, want snapshot 1's %s", hash(t, central), v1.Hash)
	}
	body, err := os.ReadFile(filepath.Join(link, "SKILL.md"))
	if err != nil || !strings.HasSuffix(string(body), "v1") {
		t.Fatalf("through the link: %q %v, want the restored SKILL.md", body, err)
	}
	list, _ := List(fsys.OS{}, root, "pdf")
	last := list[len(list)-1]
	if len(list) != 2 || last.Kind != KindRestore || last.Hash != edited {
		t.Fatalf("index after restore: %+v, want a restore snapshot of the edited content", list)
	}
	entries, _ := os.ReadDir(store)
	if len(entries) != 1 {
		t.Fatalf("the store holds leftovers: %v", entries)
	}
}

func TestRestoreIntoEmptyStore(t *testing.T) {
	base := t.TempDir()
	root, store, src := filepath.Join(base, "snapshots"), filepath.Join(base, "skills"), filepath.Join(base, "src")
	writeSkill(t, src, "v1")
	snap, _, _ := Take(fsys.OS{}, root, "pdf", src, KindImported, Meta{})
	if err := Restore(fsys.OS{}, root, "pdf", "1", store); err != nil {
		t.Fatal(err)
	}
	if hash(t, filepath.Join(store, "pdf")) != snap.Hash {
		t.Fatal("the restored skill differs from its snapshot")
	}
	if err := Restore(fsys.OS{}, root, "pdf", "7", store); err == nil || !strings.Contains(err.Error(), "its snapshots are 1") {
		t.Fatalf("unknown id: %v, want the known ids listed", err)
	}
}

func TestRestoreUnknownIDIsErrNoSnapshot(t *testing.T) {
	root, store := t.TempDir(), t.TempDir()
	for _, id := range []string{"7", "x"} {
		if err := Restore(fsys.OS{}, root, "demo", id, store); !errors.Is(err, ErrNoSnapshot) {
			t.Errorf("id %s: %v", id, err)
		}
	}
}

// What a restore brings back is a snapshot already: the watcher's
// snapshot of the restore's own writes (fs_change) is not taken again,
// while a later edit is.
func TestRestoredContentIsNotSnapshottedAgain(t *testing.T) {
	base := t.TempDir()
	root, store := filepath.Join(base, "snapshots"), filepath.Join(base, "skills")
	central := filepath.Join(store, "pdf")
	writeSkill(t, central, "v1")
	if _, _, err := Take(fsys.OS{}, root, "pdf", central, KindImported, Meta{}); err != nil {
		t.Fatal(err)
	}
	writeSkill(t, central, "broken by an edit")
	if err := Restore(fsys.OS{}, root, "pdf", "1", store); err != nil {
		t.Fatal(err)
	}
	snap, took, err := Take(fsys.OS{}, root, "pdf", central, KindFSChange, Meta{})
	if err != nil || took || snap.ID != "1" {
		t.Fatalf("a snapshot of the restored content: %+v took=%v err=%v, want snapshot 1 and none taken", snap, took, err)
	}
	writeSkill(t, central, "edited after the restore")
	if _, took, err := Take(fsys.OS{}, root, "pdf", central, KindFSChange, Meta{}); err != nil || !took {
		t.Fatalf("an edit after the restore was not snapshotted: took=%v err=%v", took, err)
	}
	list, _ := List(fsys.OS{}, root, "pdf")
	if len(list) != 3 {
		t.Fatalf("snapshots: %+v, want imported, restore and the later edit", list)
	}
}

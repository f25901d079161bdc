//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

// Run as root in a folder another user owns, what safefile creates is
// that user's, and a file it replaces keeps its own owner.
func TestCreatedThingsTakeTheFoldersOwner(t *testing.T) {
	testpeer.Root(t, "it creates files in a folder owned by another user")
	const uid, gid = 12345, 23456
	home := t.TempDir()
	if err := os.Chown(home, uid, gid); err != nil {
		t.Fatal(err)
	}
	owner := func(path string) (uint32, uint32) {
		t.Helper()
		info, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		st := info.Sys().(*syscall.Stat_t)
		return st.Uid, st.Gid
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	deep := filepath.Join(home, ".chronicle", "backups", "set")
	must(MkdirAll(deep, 0o700))
	must(Mkdir(filepath.Join(home, "one"), 0o755))
	tmp, err := MkdirTemp(home, "stage-")
	must(err)
	must(Symlink("one", filepath.Join(home, "link")))
	f, err := OpenFile(filepath.Join(home, "state.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	must(err)
	f.Close()
	must(WriteFile(filepath.Join(home, ".chronicle", "state.json"), []byte("{}"), 0o600))
	_, _, _, err = Install(filepath.Join(home, "new.json"), []byte("{}"), 0o644, Version{})
	must(err)
	must(os.MkdirAll(filepath.Join(home, "clone", "objects"), 0o755))
	must(os.WriteFile(filepath.Join(home, "clone", "objects", "pack"), nil, 0o644))
	must(InheritOwnerTree(filepath.Join(home, "clone")))
	for _, p := range []string{
		filepath.Join(home, ".chronicle"), filepath.Join(home, ".chronicle", "backups"), deep,
		filepath.Join(home, "one"), tmp, filepath.Join(home, "link"), filepath.Join(home, "state.lock"),
		filepath.Join(home, ".chronicle", "state.json"), filepath.Join(home, "new.json"),
		filepath.Join(home, "clone"), filepath.Join(home, "clone", "objects", "pack"),
	} {
		if u, g := owner(p); u != uid || g != gid {
			t.Errorf("%s belongs to %d:%d, want %d:%d", p, u, g, uid, gid)
		}
	}

	// A file of its own owner keeps it when replaced, inside or out of
	// the home.
	other := filepath.Join(home, "other.json")
	must(os.WriteFile(other, []byte("x"), 0o644))
	must(os.Chown(other, 54321, 54321))
	must(WriteFile(other, []byte("y"), 0o644))
	if u, g := owner(other); u != 54321 || g != 54321 {
		t.Errorf("a replaced file changed hands: %d:%d", u, g)
	}
	mine := filepath.Join(t.TempDir(), "root.json")
	must(WriteFile(mine, []byte("x"), 0o644))
	if u, g := owner(mine); u != 0 || g != 0 {
		t.Errorf("a new file in root's folder belongs to %d:%d", u, g)
	}
}

// Folders made at once by several goroutines (apply imports skills in
// parallel, each making ~/.chronicle/skills before its staging folder)
// are never seen with root's owner: a folder that exists already has its
// owner, so what is made inside it inherits the right one.
func TestConcurrentFoldersTakeTheFoldersOwner(t *testing.T) {
	testpeer.Root(t, "it creates folders in a folder owned by another user")
	const uid, gid = 12345, 23456
	for round := range 500 {
		home := t.TempDir()
		if err := os.Chown(home, uid, gid); err != nil {
			t.Fatal(err)
		}
		deep := filepath.Join(home, ".chronicle", "skills")
		var wg sync.WaitGroup
		made := make([]string, 8)
		errs := make([]error, 8)
		for i := range made {
			wg.Go(func() {
				if errs[i] = MkdirAll(deep, 0o755); errs[i] != nil {
					return
				}
				made[i], errs[i] = MkdirTemp(deep, "stage-")
			})
		}
		wg.Wait()
		for i, p := range append([]string{filepath.Join(home, ".chronicle"), deep}, made...) {
			if i >= 2 && errs[i-2] != nil {
				t.Fatal(errs[i-2])
			}
			info, err := os.Lstat(p)
			if err != nil {
				t.Fatal(err)
			}
			if st := info.Sys().(*syscall.Stat_t); st.Uid != uid || st.Gid != gid {
				t.Fatalf("round %d: %s belongs to %d:%d, want %d:%d", round, p, st.Uid, st.Gid, uid, gid)
			}
		}
	}
}

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What cannot be done fails with an error naming the path, and leaves
// nothing behind: a folder that is missing, a symlink that dangles, a
// file in the way of a folder.
func TestFailuresNameThePathAndLeaveNothing(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	if err := os.WriteFile(p("file"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(p("nowhere/at/all"), p("dangling")); err != nil {
		t.Fatal(err)
	}
	missing := p("missing/f")
	for name, err := range map[string]error{
		"WriteFile in a missing folder":     WriteFile(missing, nil, 0o600),
		"WriteFile through a dangling link": WriteFile(p("dangling"), nil, 0o600),
		"Install in a missing folder": func() error {
			_, _, _, err := Install(missing, nil, 0o600, Version{})
			return err
		}(),
		"Install through a dangling link": func() error {
			_, _, _, err := Install(p("dangling"), nil, 0o600, Version{})
			return err
		}(),
		"MkdirAll over a file":      MkdirAll(p("file/sub"), 0o755),
		"Mkdir in a missing folder": Mkdir(missing, 0o755),
		"MkdirTemp in a missing folder": func() error {
			_, err := MkdirTemp(p("missing"), "x-")
			return err
		}(),
		"Symlink over a file": Symlink("x", p("file")),
		"OpenFile in a missing folder": func() error {
			_, err := OpenFile(missing, os.O_WRONLY|os.O_CREATE, 0o600)
			return err
		}(),
		"ReplaceDir of a missing folder": ReplaceDir(p("missing"), p("missing2"), p("aside")),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if !strings.Contains(err.Error(), dir) {
			t.Errorf("%s: %v does not name the path", name, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("left behind: %v", entries)
	}
}

// When staged cannot be moved into current's place, the fallback puts
// current back where it was.
func TestReplaceByRenamePutsCurrentBack(t *testing.T) {
	base := t.TempDir()
	current := filepath.Join(base, "current")
	dirWith(t, current, "old")
	err := replaceByRename(filepath.Join(base, "missing"), current, filepath.Join(base, "aside"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("replaceByRename of a missing folder: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(current, "f")); string(b) != "old" {
		t.Fatalf("current holds %q, want its old content back", b)
	}
}

// WriteInPlace and ReadVersion of what is not there say so.
func TestInPlaceAndVersionOfNothing(t *testing.T) {
	dir := t.TempDir()
	if err := WriteInPlace(filepath.Join(dir, "missing"), []byte("x")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("WriteInPlace of a missing file: %v", err)
	}
	v, err := ReadVersion(filepath.Join(dir, "missing"))
	if err != nil || v.Exists {
		t.Fatalf("ReadVersion of a missing file: %+v %v", v, err)
	}
	if _, err := ReadVersion(dir); err == nil {
		t.Fatal("ReadVersion of a folder read it")
	}
}

// A file that appeared where none was expected stays as it is, and is
// returned; the new one is refused without being written.
func TestInstallLeavesAFileThatAppeared(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.json")
	none, err := ReadVersion(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("theirs"), 0o600); err != nil {
		t.Fatal(err)
	}
	done, now, _, err := Install(path, []byte("mine"), 0o600, none)
	if err != nil || done || string(now.Data) != "theirs" || read(t, path) != "theirs" {
		t.Fatalf("done %v now %q err %v, file %q: want theirs kept", done, now.Data, err, read(t, path))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
	// A tree another library wrote gets its folder's owner (as root) or
	// stays as it is: either way every path of it is visited.
	if err := InheritOwnerTree(dir); err != nil {
		t.Fatal(err)
	}
	if err := InheritOwnerTree(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("InheritOwnerTree of a missing folder: %v", err)
	}
}

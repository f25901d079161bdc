package fsys

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Every operation passes through a Recorder to the real filesystem, in
// order, with its paths; a read-only view reads alike.
func TestEveryOperationThroughTheSeam(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	rec := &Recorder{System: OS{}}
	var sys System = rec
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(sys.MkdirAll(p("a/b"), 0o755))
	must(sys.Mkdir(p("c"), 0o755))
	must(sys.WriteNew(p("a/f"), []byte("one"), 0o644))
	if err := sys.WriteNew(p("a/f"), []byte("two"), 0o644); err == nil {
		t.Fatal("WriteNew replaced a file")
	}
	must(sys.WriteFile(p("a/f"), []byte("two"), 0o600))
	v, err := sys.ReadVersion(p("a/f"))
	must(err)
	in, err := sys.Install(p("a/f"), []byte("three"), 0o600, v)
	must(err)
	if !in.Done {
		t.Fatal("not installed")
	}
	must(sys.WriteInPlace(p("a/f"), []byte("four")))
	must(sys.Chmod(p("a/f"), 0o640))
	must(sys.Symlink(p("a/f"), p("l")))
	if target, err := sys.Readlink(p("l")); err != nil || target != p("a/f") {
		t.Fatalf("Readlink %q %v", target, err)
	}
	must(sys.Rename(p("c"), p("d")))
	must(sys.RenameNew(p("d"), p("e")))
	if err := sys.RenameNew(p("e"), p("a")); err == nil {
		t.Fatal("RenameNew replaced a folder")
	}
	tmp, err := sys.MkdirTemp(dir, "t-")
	must(err)
	must(sys.MkdirAll(filepath.Join(tmp, "x"), 0o755))
	must(sys.ReplaceDir(filepath.Join(tmp, "x"), p("e"), filepath.Join(tmp, "aside")))
	must(sys.InheritOwnerTree(p("a")))
	must(sys.Remove(p("l")))
	must(sys.RemoveAll(tmp))

	for _, r := range []Reader{sys, ReadOnly(sys)} {
		if b, err := r.ReadFile(p("a/f")); err != nil || string(b) != "four" {
			t.Fatalf("ReadFile %q %v", b, err)
		}
		if info, err := r.Stat(p("a/f")); err != nil || info.Mode().Perm() != 0o640 {
			t.Fatalf("Stat %v %v", info, err)
		}
		if _, err := r.Lstat(p("a")); err != nil {
			t.Fatal(err)
		}
		if entries, err := r.ReadDir(p("a")); err != nil || len(entries) != 2 {
			t.Fatalf("ReadDir %v %v", entries, err)
		}
		f, err := r.Open(p("a/f"))
		must(err)
		f.Close()
	}
	if _, err := ReadOnly(sys).Readlink(p("a/f")); err == nil {
		t.Fatal("Readlink of a file")
	}
	var names []string
	for _, op := range rec.Writes() {
		names = append(names, op.Name)
	}
	want := []string{"MkdirAll", "Mkdir", "WriteNew", "WriteNew", "WriteFile", "Install", "WriteInPlace", "Chmod", "Symlink",
		"Rename", "RenameNew", "RenameNew", "MkdirTemp", "MkdirAll", "ReplaceDir", "InheritOwnerTree", "Remove", "RemoveAll"}
	if !slices.Equal(names, want) {
		t.Fatalf("writes recorded:\n got %v\nwant %v", names, want)
	}
	if _, err := os.Stat(p("e")); err != nil {
		t.Fatal(err)
	}
}

// A Recorder whose Before fails an operation fails every kind of it.
func TestRecorderFailsEveryKind(t *testing.T) {
	boom := os.ErrPermission
	rec := &Recorder{System: OS{}, Before: func(Op) error { return boom }}
	dir := t.TempDir()
	p := filepath.Join(dir, "x")
	errs := []error{}
	_, e1 := rec.Lstat(p)
	_, e2 := rec.Stat(p)
	_, e3 := rec.ReadFile(p)
	_, e4 := rec.ReadDir(dir)
	_, e5 := rec.Readlink(p)
	_, e6 := rec.Open(p)
	_, e7 := rec.ReadVersion(p)
	_, e8 := rec.Install(p, nil, 0, Version{})
	_, e9 := rec.MkdirTemp(dir, "x")
	errs = append(errs, e1, e2, e3, e4, e5, e6, e7, e8, e9,
		rec.WriteFile(p, nil, 0), rec.WriteNew(p, nil, 0), rec.WriteInPlace(p, nil), rec.Mkdir(p, 0), rec.MkdirAll(p, 0),
		rec.Symlink(p, p), rec.Rename(p, p), rec.RenameNew(p, p), rec.Remove(p), rec.RemoveAll(p), rec.Chmod(p, 0), rec.ReplaceDir(p, p, p),
		rec.InheritOwnerTree(dir), rec.Sync(dir))
	for i, err := range errs {
		if err != boom {
			t.Errorf("operation %d: %v, want the injected error", i, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a failed operation was carried out: %v", entries)
	}
}

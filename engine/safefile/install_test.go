package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Install puts its bytes in place only over the version it was given: a
// file another program replaced or rewrote since is left as that program
// wrote it, and returned.
func TestInstallComparesAndSwaps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, []byte("v1"), 0o640); err != nil {
		t.Fatal(err)
	}
	v1, err := ReadVersion(path)
	if err != nil || !v1.Exists || string(v1.Data) != "v1" {
		t.Fatalf("ReadVersion: %+v %v", v1, err)
	}
	done, _, exact, err := Install(path, []byte("mine"), 0o600, v1)
	if err != nil || !done || !exact || read(t, path) != "mine" {
		t.Fatalf("Install over the version read: done %v exact %v err %v, file %q", done, exact, err, read(t, path))
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want the file's own 0640", info.Mode().Perm())
	}
	// Another program replaces the file (a new inode), then another
	// rewrites it in place with bytes of the same size.
	v2, _ := ReadVersion(path)
	if err := os.WriteFile(path+".other", []byte("theirs"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".other", path); err != nil {
		t.Fatal(err)
	}
	done, now, _, err := Install(path, []byte("again"), 0o600, v2)
	if err != nil || done || string(now.Data) != "theirs" || read(t, path) != "theirs" {
		t.Fatalf("Install over a replaced file: done %v now %q err %v, file %q", done, now.Data, err, read(t, path))
	}
	v3, _ := ReadVersion(path)
	if err := os.WriteFile(path, []byte("THEIRS"), 0o640); err != nil {
		t.Fatal(err)
	}
	if done, now, _, _ := Install(path, []byte("again"), 0o600, v3); done || string(now.Data) != "THEIRS" || read(t, path) != "THEIRS" {
		t.Fatalf("Install over a file rewritten in place: done %v now %q, file %q", done, now.Data, read(t, path))
	}
	// A new file: expected absent, and absent.
	fresh := filepath.Join(dir, "new.json")
	absent, err := ReadVersion(fresh)
	if err != nil || absent.Exists {
		t.Fatalf("ReadVersion of a missing file: %+v %v", absent, err)
	}
	if done, _, _, err := Install(fresh, []byte("{}"), 0o600, absent); err != nil || !done || read(t, fresh) != "{}" {
		t.Fatalf("Install of a new file: %v %v", done, err)
	}
	// Expected absent, but a file appeared: it stays.
	appeared := filepath.Join(dir, "appeared.json")
	os.WriteFile(appeared, []byte("first"), 0o600)
	if done, now, _, _ := Install(appeared, []byte("{}"), 0o600, absent); done || string(now.Data) != "first" {
		t.Fatalf("Install where a file appeared: done %v now %q", done, now.Data)
	}
}

func TestWriteInPlaceKeepsHardLinksAndRenameNewNeverClobbers(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("old content"), 0o600)
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	if err := WriteInPlace(a, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if read(t, b) != "new" {
		t.Fatalf("the hard link holds %q", read(t, b))
	}
	c := filepath.Join(dir, "c")
	os.WriteFile(c, []byte("c"), 0o600)
	if err := RenameNew(c, b); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("RenameNew over an existing file: %v", err)
	}
	if read(t, b) != "new" || read(t, c) != "c" {
		t.Fatal("RenameNew changed a file when it refused")
	}
	d := filepath.Join(dir, "d")
	if err := RenameNew(c, d); err != nil || read(t, d) != "c" {
		t.Fatalf("RenameNew to a free name: %v", err)
	}
	if err := SyncFS(dir); err != nil {
		t.Fatal(err)
	}
}

// Where the filesystem cannot exchange, Install compares the bytes just
// before a plain rename.
func TestPlainRenameFallback(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	os.WriteFile(path, []byte("v1"), 0o600)
	v1, _ := ReadVersion(path)
	tmp := filepath.Join(dir, "tmp")
	os.WriteFile(tmp, []byte("mine"), 0o600)
	if done, _, exact, err := plainRename(path, tmp, path, v1); err != nil || !done || exact || read(t, path) != "mine" {
		t.Fatalf("plainRename over the version read: %v %v %v, file %q", done, exact, err, read(t, path))
	}
	os.WriteFile(tmp, []byte("again"), 0o600)
	if done, now, _, err := plainRename(path, tmp, path, v1); err != nil || done || string(now.Data) != "mine" || read(t, path) != "mine" {
		t.Fatalf("plainRename over a changed file: %v %q %v", done, now.Data, err)
	}
}

// WriteFile and Install write through a symlink (a dotfiles checkout): the
// link stays, its target gets the bytes and keeps its mode.
func TestWritesGoThroughSymlinks(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "settings.json")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte("{}"), 0o640)
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat(link); info.Mode()&os.ModeSymlink == 0 {
		t.Fatal("WriteFile replaced the symlink by a file")
	}
	if got := read(t, real); got != `{"a":1}` {
		t.Fatalf("after WriteFile the target holds %q, want {\"a\":1}", got)
	}
	v, _ := ReadVersion(link)
	if done, _, _, err := Install(link, []byte(`{"a":2}`), 0o600, v); err != nil || !done {
		t.Fatalf("Install through the link: %v %v", done, err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if info, _ := os.Stat(real); read(t, real) != `{"a":2}` || info.Mode().Perm() != 0o640 {
		t.Fatalf("target holds %q with mode %v", read(t, real), info.Mode().Perm())
	}
	if err := WriteInPlace(filepath.Join(dir, "missing"), nil); err == nil {
		t.Fatal("WriteInPlace created a file")
	}
}

// A rewrite the one-stat check cannot see (same inode, size and mtime) is
// found after the exchange by its bytes, and put back at once.
func TestInstallFindsARewriteAfterTheExchange(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	os.WriteFile(path, []byte("v1 data"), 0o600)
	v1, _ := ReadVersion(path)
	info, _ := os.Stat(path)
	if err := os.WriteFile(path, []byte("v2 DATA"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	done, now, exact, err := Install(path, []byte("mine"), 0o600, v1)
	if err != nil || done || !exact || string(now.Data) != "v2 DATA" || read(t, path) != "v2 DATA" {
		t.Fatalf("done %v exact %v now %q err %v; the file holds %q, want the other program's v2 DATA", done, exact, now.Data, err, read(t, path))
	}
	// Removed since it was read: nothing is written.
	os.Remove(path)
	if done, _, _, _ := Install(path, []byte("mine"), 0o600, v1); done {
		t.Fatal("Install wrote a file that was removed since it was read")
	}
}

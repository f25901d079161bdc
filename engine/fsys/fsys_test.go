package fsys

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

func write(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// version reads path as Install expects it.
func version(t *testing.T, path string) Version {
	t.Helper()
	v, err := OS{}.ReadVersion(path)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestInstallReturnsWhatItDisplaced(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.json")
	write(t, p, "old", 0o640)
	d, err := OS{}.Install(p, []byte("new"), 0o600, version(t, p))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Done {
		t.Fatalf("not installed: %+v", d)
	}
	if (runtime.GOOS == "linux" || runtime.GOOS == "darwin") && !d.Exact {
		t.Fatal("on Linux and macOS the exchange is exact")
	}
	if got := read(t, p); got != "new" {
		t.Fatalf("file holds %q", got)
	}
	if info, _ := os.Stat(p); info.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want the old file's 0640", info.Mode().Perm())
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

// A file that no longer holds what the caller read is left as it is: the
// other program's version stays in place and comes back to the caller.
func TestInstallLeavesAnotherWritersVersion(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.json")
	write(t, p, "what we read", 0o600)
	read1 := version(t, p)
	// Replaced by a rename (a new file) …
	write(t, p+".new", "theirs", 0o600)
	os.Rename(p+".new", p)
	d, err := OS{}.Install(p, []byte("ours"), 0o600, read1)
	if err != nil {
		t.Fatal(err)
	}
	if d.Done || string(d.Now.Data) != "theirs" || read(t, p) != "theirs" {
		t.Fatalf("installed %+v, file %q: want theirs left in place", d, read(t, p))
	}
	// … or rewritten in place (the same file, other bytes).
	read2 := version(t, p)
	os.WriteFile(p, []byte("theirs, in place"), 0o600)
	if d, _ := (OS{}).Install(p, []byte("ours"), 0o600, read2); d.Done || read(t, p) != "theirs, in place" {
		t.Fatalf("an in-place rewrite was replaced: %+v", d)
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
	// A file that appeared where none was expected is left too.
	q := filepath.Join(t.TempDir(), "new.json")
	none := version(t, q)
	write(t, q, "appeared", 0o600)
	if d, _ := (OS{}).Install(q, []byte("ours"), 0o600, none); d.Done || read(t, q) != "appeared" {
		t.Fatalf("a file that appeared was replaced: %+v", d)
	}
}

func TestInstallKeepsReadOnlyMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "locked.json")
	write(t, p, "old", 0o444)
	if _, err := (OS{}).Install(p, []byte("new"), 0o600, version(t, p)); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(p); info.Mode().Perm() != 0o444 {
		t.Fatalf("mode %v, want 0444 kept", info.Mode().Perm())
	}
}

func TestInstallNewFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "new.json")
	d, err := OS{}.Install(p, []byte("x"), 0o600, version(t, p))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Done {
		t.Fatalf("a new file was not installed: %+v", d)
	}
	if info, _ := os.Stat(p); info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", info.Mode().Perm())
	}
}

func TestInstallThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "mcp.json")
	write(t, real, "old", 0o644)
	link := filepath.Join(dir, "mcp.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	d, err := OS{}.Install(link, []byte("new"), 0o600, version(t, link))
	if err != nil || !d.Done {
		t.Fatalf("Install: %v %+v", err, d)
	}
	if info, _ := os.Lstat(link); info.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if read(t, real) != "new" {
		t.Fatal("the link's target was not written")
	}
}

func TestInstallKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can make a file owned by someone else")
	}
	p := filepath.Join(t.TempDir(), "theirs.json")
	write(t, p, "old", 0o644)
	if err := os.Chown(p, 4321, 4322); err != nil {
		t.Fatal(err)
	}
	if _, err := (OS{}).Install(p, []byte("new"), 0o600, version(t, p)); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(p)
	st := info.Sys().(*syscall.Stat_t)
	if st.Uid != 4321 || st.Gid != 4322 {
		t.Fatalf("owner %d:%d, want 4321:4322 kept", st.Uid, st.Gid)
	}
}

func TestWriteInPlaceKeepsHardLinks(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.json")
	write(t, p, "old", 0o644)
	other := filepath.Join(dir, "dotfiles-copy.json")
	if err := os.Link(p, other); err != nil {
		t.Fatal(err)
	}
	if err := (OS{}).WriteInPlace(p, []byte("new content")); err != nil {
		t.Fatal(err)
	}
	if read(t, other) != "new content" {
		t.Fatal("the hard link was split")
	}
}

func TestReadOnlyCannotWrite(t *testing.T) {
	var r Reader = ReadOnly(OS{})
	if _, ok := r.(System); ok {
		t.Fatal("a read-only view is a System")
	}
	p := filepath.Join(t.TempDir(), "f")
	write(t, p, "x", 0o644)
	if b, err := r.ReadFile(p); err != nil || string(b) != "x" {
		t.Fatalf("ReadFile: %q %v", b, err)
	}
}

func TestRecorderRecordsAndFails(t *testing.T) {
	dir := t.TempDir()
	boom := errors.New("disk full")
	rec := &Recorder{System: OS{}, Before: func(op Op) error {
		if op.Name == "Symlink" {
			return boom
		}
		return nil
	}}
	if err := rec.WriteFile(filepath.Join(dir, "a"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := rec.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "l")); !errors.Is(err, boom) {
		t.Fatalf("Symlink: %v, want the injected error", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "l")); !os.IsNotExist(err) {
		t.Fatal("a failed operation was carried out")
	}
	if _, err := rec.ReadFile(filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	w := rec.Writes()
	if len(w) != 2 || w[0].Name != "WriteFile" || w[1].Name != "Symlink" || w[1].To != filepath.Join(dir, "l") {
		t.Fatalf("writes %+v", w)
	}
	if len(rec.Ops()) != 3 {
		t.Fatalf("ops %+v", rec.Ops())
	}
}

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
	d, err := OS{}.Install(p, []byte("new"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Existed || string(d.Data) != "old" {
		t.Fatalf("displaced %+v, want the old content", d)
	}
	if runtime.GOOS == "linux" && !d.Exact {
		t.Fatal("on Linux the exchange is exact")
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

func TestInstallKeepsReadOnlyMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "locked.json")
	write(t, p, "old", 0o444)
	if _, err := (OS{}).Install(p, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(p); info.Mode().Perm() != 0o444 {
		t.Fatalf("mode %v, want 0444 kept", info.Mode().Perm())
	}
}

func TestInstallNewFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "new.json")
	d, err := OS{}.Install(p, []byte("x"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if d.Existed || d.Data != nil {
		t.Fatalf("displaced %+v for a new file", d)
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
	d, err := OS{}.Install(link, []byte("new"), 0o600)
	if err != nil || string(d.Data) != "old" {
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
	if _, err := (OS{}).Install(p, []byte("new"), 0o600); err != nil {
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

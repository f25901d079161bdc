package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A folder where a file is to be written is never replaced: WriteFile
// fails naming the path, the folder keeps what it holds, and no temporary
// file is left beside it.
func TestWriteFileLeavesAFolderInItsPlace(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "settings.json")
	if err := os.MkdirAll(filepath.Join(target, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(target, []byte("{}"), 0o644)
	if err == nil || !strings.HasPrefix(err.Error(), target+": ") {
		t.Fatalf("WriteFile over a folder: %v", err)
	}
	if info, err := os.Stat(filepath.Join(target, "inside")); err != nil || !info.IsDir() {
		t.Fatalf("the folder lost what it held: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}

// A path through a file (a file where a folder should be) reads as an
// error saying so, not as a missing file: ReadVersion must not report
// "nothing there" for what it cannot look at.
func TestReadVersionThroughAFileIsAnError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := ReadVersion(filepath.Join(file, "settings.json"))
	if !errors.Is(err, syscall.ENOTDIR) || v.Exists {
		t.Fatalf("ReadVersion through a file: %+v %v", v, err)
	}
}

// InheritOwner of what is not there says so, whether its folder is
// missing or only the thing itself.
func TestInheritOwnerOfNothing(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{filepath.Join(dir, "missing", "f"), filepath.Join(dir, "f")} {
		if err := InheritOwner(p); os.Geteuid() == 0 && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("InheritOwner(%s) as root: %v", p, err)
		} else if os.Geteuid() != 0 && err != nil {
			t.Errorf("InheritOwner(%s) changes nothing for a user: %v", p, err)
		}
	}
}

package skills

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

func TestCopyHashedReturnsTheCopysHash(t *testing.T) {
	src := filepath.Join(t.TempDir(), "review")
	for name, body := range map[string]string{"SKILL.md": "---\nname: review\n---\n", "scripts/run.sh": "#!/bin/sh\n"} {
		os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755)
		mode := os.FileMode(0o644)
		if filepath.Ext(name) == ".sh" {
			mode = 0o755
		}
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("SKILL.md", filepath.Join(src, "README.md")); err != nil {
		t.Fatal(err)
	}
	want, err := Hash(fsys.OS{}, src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "store", "review")
	got, err := CopyHashed(fsys.OS{}, src, dst, want)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := Hash(fsys.OS{}, dst); got != want || again != want {
		t.Fatalf("CopyHashed returned %s, the copy hashes %s, the source %s", got, again, want)
	}
	// A source that is not the one expected is not put in place.
	other := filepath.Join(filepath.Dir(dst), "other")
	if _, err := CopyHashed(fsys.OS{}, src, other, "sha256:somethingelse"); !errors.Is(err, ErrChanged) {
		t.Fatalf("copying a source with another hash: %v, want ErrChanged", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(dst))
	if len(entries) != 1 {
		t.Fatalf("the store holds %d entries after the refused copy, want only review (no copy, no staging left)", len(entries))
	}
}

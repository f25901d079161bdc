package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The compare-and-swap install stands on two primitives, each atomic where
// the platform has it: exchange (Linux renameat2 RENAME_EXCHANGE, macOS
// renamex_np RENAME_SWAP) and the rename that never replaces (Linux
// RENAME_NOREPLACE, macOS RENAME_EXCL). Each GOOS gets exactly what it
// promises; elsewhere both say they are unsupported and the callers fall
// back to renames, Install then reporting its check as not exact.
func TestExchangeAndNoReplacePerGOOS(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	for n, content := range map[string]string{"a": "A", "b": "B", "c": "C"} {
		if err := os.WriteFile(p(n), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"da", "db"} {
		if err := os.MkdirAll(filepath.Join(p(d), d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	switch runtime.GOOS {
	case "linux", "darwin":
		if err := exchange(p("a"), p("b")); err != nil {
			t.Fatalf("exchange: %v", err)
		}
		if read(t, p("a")) != "B" || read(t, p("b")) != "A" {
			t.Fatalf("after an exchange a holds %q, b %q", read(t, p("a")), read(t, p("b")))
		}
		if err := exchange(p("a"), p("missing")); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("exchange with a missing path: %v, want fs.ErrNotExist", err)
		}
		if err := exchange(p("da"), p("db")); err != nil {
			t.Fatalf("exchanging folders: %v", err)
		}
		if _, err := os.Stat(filepath.Join(p("da"), "db")); err != nil {
			t.Fatalf("after exchanging folders da does not hold db's content: %v", err)
		}
		if err := renameNoReplace(p("c"), p("a")); !errors.Is(err, fs.ErrExist) {
			t.Fatalf("renameNoReplace over a file: %v, want fs.ErrExist", err)
		}
		if read(t, p("a")) != "B" || read(t, p("c")) != "C" {
			t.Fatal("a refused renameNoReplace changed a file")
		}
		if err := renameNoReplace(p("c"), p("new")); err != nil {
			t.Fatalf("renameNoReplace to a free name: %v", err)
		}
		if _, err := os.Lstat(p("c")); !errors.Is(err, fs.ErrNotExist) || read(t, p("new")) != "C" {
			t.Fatal("renameNoReplace did not move the file")
		}
		v, err := ReadVersion(p("a"))
		if err != nil {
			t.Fatal(err)
		}
		if done, _, exact, err := Install(p("a"), []byte("mine"), 0o600, v); err != nil || !done || !exact {
			t.Fatalf("Install on %s: done %v exact %v err %v, want an exact install", runtime.GOOS, done, exact, err)
		}
	default:
		if err := exchange(p("a"), p("b")); !errors.Is(err, errUnsupported) {
			t.Fatalf("exchange on %s: %v, want unsupported", runtime.GOOS, err)
		}
		if err := renameNoReplace(p("c"), p("new")); !errors.Is(err, errUnsupported) {
			t.Fatalf("renameNoReplace on %s: %v, want unsupported", runtime.GOOS, err)
		}
		v, err := ReadVersion(p("a"))
		if err != nil {
			t.Fatal(err)
		}
		if done, _, exact, err := Install(p("a"), []byte("mine"), 0o600, v); err != nil || !done || exact {
			t.Fatalf("Install on %s: done %v exact %v err %v, want a compare before a rename", runtime.GOOS, done, exact, err)
		}
	}
	// Whatever the platform, RenameNew never replaces.
	if err := RenameNew(p("b"), p("a")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("RenameNew over a file: %v, want fs.ErrExist", err)
	}
}

package jsontooltest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsonfile"
)

// NewEntry is a stdio entry to add; withSecret adds an environment
// reference, for tools that can write one.
func NewEntry(withSecret bool) provider.Entry {
	e := provider.Entry{
		Name:       "chronicle-added",
		Definition: service.Definition{Transport: service.Stdio, Command: "npx", Args: []secret.Value{secret.Literal("-y"), secret.Literal("@example/mcp")}},
		Enabled:    true,
	}
	if withSecret {
		e.Env = map[string]secret.Value{"API_KEY": Env("EXAMPLE_KEY")}
	}
	return e
}

// RoundTrip puts e at loc, reads it back, removes it and requires the
// original bytes.
func RoundTrip(t *testing.T, p provider.Provider, loc provider.Location, e provider.Entry) {
	t.Helper()
	before := ReadFile(t, loc.File)
	if err := p.Put(loc, e); err != nil {
		t.Fatal(err)
	}
	entries, err := p.Read(loc)
	if err != nil {
		t.Fatal(err)
	}
	got := find(entries, e.Name)
	if got == nil {
		t.Fatalf("Put %s, Read does not return it", e.Name)
	}
	want, _ := p.Render(e)
	if again, _ := p.Render(*got); string(again) != string(want) {
		t.Fatalf("read back as\n%s\nwant\n%s", again, want)
	}
	if err := p.Remove(loc, e.Name); err != nil {
		t.Fatal(err)
	}
	if after := ReadFile(t, loc.File); string(after) != string(before) {
		t.Fatalf("Put then Remove did not give back the file:\n%s", after)
	}
}

// Replace puts e over the entry of the same name at loc and requires that
// nothing else in the file changed: removing the entry from the file before
// and after must give the same bytes.
func Replace(t *testing.T, p provider.Provider, loc provider.Location, e provider.Entry) {
	t.Helper()
	before := ReadFile(t, loc.File)
	if err := p.Put(loc, e); err != nil {
		t.Fatal(err)
	}
	after := ReadFile(t, loc.File)
	if string(after) == string(before) {
		t.Fatal("Put of a changed entry left the file as it was")
	}
	entries, err := p.Read(loc)
	if err != nil {
		t.Fatal(err)
	}
	if got := find(entries, e.Name); got == nil || !sameEntry(p, *got, e) {
		t.Fatalf("read back %+v, want %+v", got, e)
	}
	stripped := func(b []byte) string {
		path := filepath.Join(t.TempDir(), filepath.Base(loc.File))
		os.WriteFile(path, b, 0o600)
		if err := p.Remove(provider.Location{Tool: loc.Tool, Scope: loc.Scope, File: path, KeyPath: loc.KeyPath, Project: loc.Project}, e.Name); err != nil {
			t.Fatal(err)
		}
		return string(ReadFile(t, path))
	}
	if a, b := stripped(before), stripped(after); a != b {
		t.Fatalf("Put changed more than the entry:\n--- before\n%s\n--- after\n%s", a, b)
	}
}

func sameEntry(p provider.Provider, a, b provider.Entry) bool {
	ra, err1 := p.Render(a)
	rb, err2 := p.Render(b)
	return err1 == nil && err2 == nil && string(ra) == string(rb)
}

func find(entries []provider.Entry, name string) *provider.Entry {
	for i := range entries {
		if entries[i].Name == name {
			return &entries[i]
		}
	}
	return nil
}

// Symlink makes loc's file a link into a dotfiles folder, round-trips an
// entry through it and requires the link to stay a link.
func Symlink(t *testing.T, p provider.Provider, loc provider.Location, e provider.Entry) {
	t.Helper()
	real := filepath.Join(t.TempDir(), "dotfiles", filepath.Base(loc.File))
	os.MkdirAll(filepath.Dir(real), 0o755)
	if err := os.Rename(loc.File, real); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, loc.File); err != nil {
		t.Fatal(err)
	}
	RoundTrip(t, p, loc, e)
	if err := p.Put(loc, e); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(loc.File); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the config file is no longer a symlink")
	}
}

// Unparsable writes a broken file at loc: Read and Put return a
// *provider.ParseError with a line, and the file keeps its bytes and mtime.
func Unparsable(t *testing.T, p provider.Provider, loc provider.Location) {
	t.Helper()
	broken := "{\n  \"a\": 1,\n  \"mcpServers\": {\n    \"x\": {\"command\": \"y\"\n  }\n}\n"
	os.MkdirAll(filepath.Dir(loc.File), 0o755)
	if err := os.WriteFile(loc.File, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(loc.File, old, old)
	var pe *provider.ParseError
	if _, err := p.Read(loc); !errors.As(err, &pe) || pe.Line == 0 || pe.File != loc.File {
		t.Fatalf("Read: got %v, want a *ParseError with a line", err)
	}
	if err := p.Put(loc, NewEntry(false)); !errors.As(err, &pe) {
		t.Fatalf("Put: got %v, want a *ParseError", err)
	}
	if err := p.Remove(loc, "x"); !errors.As(err, &pe) {
		t.Fatalf("Remove: got %v, want a *ParseError", err)
	}
	info, _ := os.Stat(loc.File)
	if got := ReadFile(t, loc.File); string(got) != broken || !info.ModTime().Equal(old) {
		t.Fatal("an unparsable file was touched")
	}
}

// Missing removes loc's file: Read says ErrNotConfigured, and Put creates
// the file with mode perm holding the entry.
func Missing(t *testing.T, p provider.Provider, loc provider.Location, e provider.Entry, perm os.FileMode) {
	t.Helper()
	os.Remove(loc.File)
	if _, err := p.Read(loc); !errors.Is(err, provider.ErrNotConfigured) {
		t.Fatalf("Read of a missing file: got %v, want ErrNotConfigured", err)
	}
	if err := p.Put(loc, e); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(loc.File)
	if err != nil || info.Mode().Perm() != perm {
		t.Fatalf("created file: %v, mode %v, want %v", err, info.Mode().Perm(), perm)
	}
	entries, err := p.Read(loc)
	if err != nil || find(entries, e.Name) == nil {
		t.Fatalf("created file does not hold the entry: %v", err)
	}
	if _, err := jsonfile.Load(loc.File); err != nil {
		t.Fatal(err)
	}
}

// FuzzRead writes src as loc's file and reads it: no panic, and either
// entries or an error.
func FuzzRead(t *testing.T, p provider.Provider, loc provider.Location, src []byte) {
	loc.File = filepath.Join(t.TempDir(), filepath.Base(loc.File))
	if err := os.WriteFile(loc.File, src, 0o600); err != nil {
		t.Fatal(err)
	}
	entries, err := p.Read(loc)
	if err != nil {
		return
	}
	for _, e := range entries {
		p.Render(e)
	}
}

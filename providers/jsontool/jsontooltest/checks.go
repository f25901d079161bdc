package jsontooltest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
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

// RoundTrip sets e at loc, reads it back, removes it and requires the
// original bytes.
func RoundTrip(t *testing.T, p provider.Provider, loc provider.Location, e provider.Entry) {
	t.Helper()
	before := ReadFile(t, loc.File)
	if err := pt.Put(p, loc, e); err != nil {
		t.Fatal(err)
	}
	entries, err := pt.Read(p, loc)
	if err != nil {
		t.Fatal(err)
	}
	got := find(entries, e.Name)
	if got == nil {
		t.Fatalf("set %s, Entries do not return it", e.Name)
	}
	want, _ := p.Render(e)
	if again, _ := p.Render(*got); string(again) != string(want) {
		t.Fatalf("read back as\n%s\nwant\n%s", again, want)
	}
	if err := pt.Remove(p, loc, e.Name); err != nil {
		t.Fatal(err)
	}
	if after := ReadFile(t, loc.File); string(after) != string(before) {
		t.Fatalf("set then remove did not give back the file:\n%s", after)
	}
}

// Replace sets e over the entry of the same name at loc and requires that
// nothing else in the file changed: removing the entry from the file before
// and after must give the same bytes.
func Replace(t *testing.T, p provider.Provider, loc provider.Location, e provider.Entry) {
	t.Helper()
	before := ReadFile(t, loc.File)
	if err := pt.Put(p, loc, e); err != nil {
		t.Fatal(err)
	}
	after := ReadFile(t, loc.File)
	if string(after) == string(before) {
		t.Fatal("setting a changed entry left the file as it was")
	}
	entries, err := pt.Read(p, loc)
	if err != nil {
		t.Fatal(err)
	}
	if got := find(entries, e.Name); got == nil || !sameEntry(p, *got, e) {
		t.Fatalf("read back %+v, want %+v", got, e)
	}
	stripped := func(b []byte) string {
		path := filepath.Join(t.TempDir(), filepath.Base(loc.File))
		os.WriteFile(path, b, 0o600)
		if err := pt.Remove(p, provider.Location{Tool: loc.Tool, Scope: loc.Scope, File: path, KeyPath: loc.KeyPath, Project: loc.Project}, e.Name); err != nil {
			t.Fatal(err)
		}
		return string(ReadFile(t, path))
	}
	if a, b := stripped(before), stripped(after); a != b {
		t.Fatalf("the edit changed more than the entry:\n--- before\n%s\n--- after\n%s", a, b)
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
// entry through it — the edited bytes installed through the filesystem
// seam, as apply installs them — and requires the link to stay a link.
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
	if err := pt.Put(p, loc, e); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(loc.File); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the config file is no longer a symlink")
	}
}

// Unparsable writes a broken file at loc: reading it and parsing it for an
// edit are a *provider.ParseError naming the file and a line.
func Unparsable(t *testing.T, p provider.Provider, loc provider.Location) {
	t.Helper()
	broken := "{\n  \"a\": 1,\n  \"mcpServers\": {\n    \"x\": {\"command\": \"y\"\n  }\n}\n"
	os.MkdirAll(filepath.Dir(loc.File), 0o755)
	if err := os.WriteFile(loc.File, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	var pe *provider.ParseError
	if _, err := pt.Read(p, loc); !errors.As(err, &pe) || pe.Line == 0 || pe.File != loc.File {
		t.Fatalf("Entries: got %v, want a *ParseError with a line", err)
	}
	if _, err := pt.Edit(p, loc.File, pt.Set(loc, NewEntry(false))); !errors.As(err, &pe) || pe.Line == 0 {
		t.Fatalf("Edit: got %v, want a *ParseError with a line", err)
	}
}

// Missing removes loc's file: Entries say ErrNotConfigured, removing an
// entry leaves the file missing, and setting one creates the file holding
// it.
func Missing(t *testing.T, p provider.Provider, loc provider.Location, e provider.Entry) {
	t.Helper()
	os.Remove(loc.File)
	if _, err := pt.Read(p, loc); !errors.Is(err, provider.ErrNotConfigured) {
		t.Fatalf("Entries of a missing file: got %v, want ErrNotConfigured", err)
	}
	if out, err := pt.Edit(p, loc.File, pt.Unset(loc, e.Name)); err != nil || out != nil {
		t.Fatalf("removing from a missing file gave %q, %v; want no file", out, err)
	}
	if err := pt.Put(p, loc, e); err != nil {
		t.Fatal(err)
	}
	entries, err := pt.Read(p, loc)
	if err != nil || find(entries, e.Name) == nil {
		t.Fatalf("created file does not hold the entry: %v", err)
	}
}

// FuzzRead writes src as loc's file and reads it: no panic, and either
// entries or an error.
func FuzzRead(t *testing.T, p provider.Provider, loc provider.Location, src []byte) {
	loc.File = filepath.Join(t.TempDir(), filepath.Base(loc.File))
	if err := os.WriteFile(loc.File, src, 0o600); err != nil {
		t.Fatal(err)
	}
	entries, err := pt.Read(p, loc)
	if err != nil {
		return
	}
	for _, e := range entries {
		p.Render(e)
	}
}

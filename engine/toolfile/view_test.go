package toolfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
	"github.com/chronicle-dev/chronicle/providers/cursor"
)

// A View reads each file once per run, whatever asks: every decision of a
// plan describes one byte sequence.
func TestViewReadsEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mcp.json")
	os.WriteFile(file, []byte(`{"mcpServers": {"a": {"command": "x"}}}`), 0o600)
	rec := &fsys.Recorder{System: fsys.OS{}}
	v := toolfile.NewView(fsys.ReadOnly(rec))
	p := cursor.New()
	loc := provider.Location{Tool: "cursor", Scope: provider.ScopeUser, File: file, KeyPath: []string{"mcpServers"}}
	for range 3 {
		entries, err := v.Entries(p, loc)
		if err != nil || len(entries) != 1 || entries[0].Name != "a" {
			t.Fatalf("Entries: %+v %v", entries, err)
		}
	}
	// The file changes on disk: the View keeps describing what it read.
	os.WriteFile(file, []byte(`{"mcpServers": {}}`), 0o600)
	if entries, _ := v.Entries(p, loc); len(entries) != 1 {
		t.Fatal("a View read a file twice")
	}
	f := v.File(file)
	if !f.Exists || f.Hash() != toolfile.Hash(f.Data) {
		t.Fatalf("file %+v", f)
	}
	reads := 0
	for _, op := range rec.Ops() {
		if op.Name == "ReadFile" && op.Path == file {
			reads++
		}
	}
	if reads != 1 {
		t.Fatalf("%d reads of one file", reads)
	}
	// Parsed caches by path, and a missing file is nil, nil.
	calls := 0
	parse := func(string, []byte) (any, error) { calls++; return "parsed", nil }
	for range 2 {
		if got, err := v.Parsed(file, parse); got != "parsed" || err != nil {
			t.Fatalf("Parsed: %v %v", got, err)
		}
	}
	if got, err := v.Parsed(filepath.Join(dir, "none.json"), parse); got != nil || err != nil || calls != 1 {
		t.Fatalf("Parsed of a missing file: %v %v (%d calls)", got, err, calls)
	}
	missing := loc
	missing.File = filepath.Join(dir, "missing.json")
	if _, err := v.Entries(p, missing); !errors.Is(err, provider.ErrNotConfigured) {
		t.Fatalf("a missing file: %v", err)
	}
	if f := v.File(missing.File); f.Exists || f.Hash() != toolfile.Absent {
		t.Fatalf("missing file %+v", f)
	}
}

// Find answers by name from one decode of the location's entries: the last
// entry of a name, as a tool reads a duplicated key; nil when there is
// none, or when the file does not exist.
func TestFindDecodesALocationOnce(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mcp.json")
	os.WriteFile(file, []byte(`{"mcpServers": {"a": {"command": "first"}, "b": {"command": "y"}, "a": {"command": "last"}}}`), 0o600)
	v := toolfile.NewView(fsys.OS{})
	p := cursor.New()
	loc := provider.Location{Tool: "cursor", Scope: provider.ScopeUser, File: file, KeyPath: []string{"mcpServers"}}
	e, f, err := v.Find(p, loc, "a")
	if err != nil || e == nil || e.Command != "last" || !f.Exists {
		t.Fatalf("Find a: %+v %+v %v, want the last entry named a", e, f, err)
	}
	if e, _, err := v.Find(p, loc, "none"); e != nil || err != nil {
		t.Fatalf("Find of an absent name: %+v %v", e, err)
	}
	doc, _, err := v.Document(p, file)
	if err != nil {
		t.Fatal(err)
	}
	l := toolfile.NewListing(doc, v)
	if e, err := l.Find(loc, "b"); err != nil || e == nil || e.Command != "y" {
		t.Fatalf("Listing.Find b: %+v %v", e, err)
	}
	// The caller may change what it got without changing the listing.
	entries, _ := l.Entries(loc)
	entries[0].Name = "changed"
	if again, _ := l.Entries(loc); again[0].Name == "changed" {
		t.Fatal("Entries hands out the listing's own slice")
	}
	missing := loc
	missing.File = filepath.Join(dir, "none.json")
	if e, f, err := v.Find(p, missing, "a"); e != nil || err != nil || f.Exists {
		t.Fatalf("Find in a missing file: %+v %+v %v", e, f, err)
	}
	if v.Reader() == nil {
		t.Fatal("no reader")
	}
}

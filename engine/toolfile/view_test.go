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
	if !f.Exists || f.Hash != toolfile.Hash(f.Data) {
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
	if f := v.File(missing.File); f.Exists || f.Hash != toolfile.Absent {
		t.Fatalf("missing file %+v", f)
	}
}

package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMergeByService: a merge replaces the listed services, keeps the
// others that are still declared, drops the rest, and replaces the file
// atomically (no temporary file left beside it, mode 0600).
func TestMergeByService(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "home", FileName)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	first := map[string]Listing{
		"github": {Listed: at, Tools: []Tool{{Name: "get_me", Exposed: "github__get_me", Tokens: 40}, {Name: "list_issues", Exposed: "github__list_issues", Tokens: 160}}},
		"notes":  {Listed: at, Tools: []Tool{{Name: "find", Exposed: "notes__find", Tokens: 30}}},
		"old":    {Listed: at, Tools: []Tool{}},
	}
	if err := Merge(path, first, map[string]bool{"github": true, "notes": true, "old": true}, 318); err != nil {
		t.Fatal(err)
	}
	later := at.Add(time.Hour)
	if err := Merge(path, map[string]Listing{"github": {Listed: later, Tools: []Tool{{Name: "get_me", Exposed: "github__get_me", Tokens: 41}}}},
		map[string]bool{"github": true, "notes": true}, 318); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Services) != 2 || f.Services["github"].Tokens() != 41 || !f.Services["github"].Listed.Equal(later) ||
		f.Services["notes"].Tokens() != 30 || f.MetaTokens != 318 || f.Version != Version {
		t.Errorf("after the merge: %+v", f)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("files beside the cache: %v", entries)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", info.Mode().Perm())
	}
	l := f.Listings()
	if len(l.Tools["notes"]) != 1 || l.Tools["notes"][0].Service != "notes" || l.MetaTokens != 318 {
		t.Errorf("listings: %+v", l)
	}
	if (*File)(nil).Listings() != nil {
		t.Error("no cache has listings")
	}
}

// TestLoad: a missing cache is none; a damaged or foreign one is an error
// that says it is a cache, and a merge replaces it.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	if f, err := Load(filepath.Join(dir, FileName)); f != nil || err != nil {
		t.Errorf("missing: %v, %v", f, err)
	}
	for name, text := range map[string]string{"damaged": "{", "foreign": `{"version": 99, "services": {}}`} {
		path := filepath.Join(dir, name+".json")
		os.WriteFile(path, []byte(text), 0o600)
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "writes it again") && !strings.Contains(err.Error(), "delete it") {
			t.Errorf("%s: %v", name, err)
		}
		if err := Merge(path, map[string]Listing{"a": {Tools: []Tool{}}}, map[string]bool{"a": true}, 1); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f, err := Load(path); err != nil || len(f.Services) != 1 {
			t.Errorf("%s after a merge: %+v, %v", name, f, err)
		}
	}
}

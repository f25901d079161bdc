package fsys

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A record written with WriteJSON reads back with ReadJSON, private; no
// file is not found; a broken one is an error naming the file.
func TestJSONRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "rec.json")
	var got struct{ N int }
	if found, err := ReadJSON(OS{}, path, &got); found || err != nil {
		t.Fatalf("missing file: %v %v", found, err)
	}
	if err := WriteJSON(OS{}, path, struct{ N int }{7}); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("mode: %v %v", info, err)
	}
	if found, err := ReadJSON(OS{}, path, &got); !found || err != nil || got.N != 7 {
		t.Fatalf("read back: %v %v %+v", found, err, got)
	}
	os.WriteFile(path, []byte("{"), 0o600)
	if _, err := ReadJSON(OS{}, path, &got); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("broken file: %v", err)
	}
	if err := WriteJSON(OS{}, path, func() {}); err == nil {
		t.Fatal("a value JSON cannot hold is an error")
	}
}

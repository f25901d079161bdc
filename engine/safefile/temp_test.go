package safefile

import (
	"os"
	"path/filepath"
	"testing"
)

// An install removes the temporary files a killed install left beside its
// file, and nothing else: not another file's, not a name that only looks
// alike, not a folder.
func TestInstallRemovesItsLeftovers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(".mcp.json", `{"mcpServers":{}}`)
	left := []string{"..mcp.json.chronicle-1234567", "..mcp.json.chronicle-9"}
	kept := []string{".settings.json.chronicle-42", "..mcp.json.chronicle-", "..mcp.json.chronicle-12a", ".mcp.json.chronicle-42", "..mcp.json.chronicle-7.bak"}
	for _, n := range append(left, kept...) {
		write(n, "half a file")
	}
	if err := os.Mkdir(filepath.Join(dir, "..mcp.json.chronicle-5"), 0o700); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, "..mcp.json.chronicle-5")
	v, err := ReadVersion(path)
	if err != nil {
		t.Fatal(err)
	}
	if done, _, _, err := Install(path, []byte(`{"mcpServers":{"a":{}}}`), 0o644, v); err != nil || !done {
		t.Fatalf("Install: %v %v", done, err)
	}
	for _, n := range left {
		if _, err := os.Lstat(filepath.Join(dir, n)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", n, err)
		}
	}
	for _, n := range kept {
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s was removed: %v", n, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1+len(kept) {
		t.Errorf("the folder holds %d entries, want the file and %d kept: %v", len(entries), len(kept), entries)
	}
}

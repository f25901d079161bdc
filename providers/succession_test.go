package providers

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// TestSuccessions: a vendor's move is reported only where the new tool is
// present, and names two tools All knows.
func TestSuccessions(t *testing.T) {
	home := t.TempDir()
	env := provider.Env{Home: home, Getenv: func(string) (string, bool) { return "", false }}
	if got := Successions(fsys.OS{}, env, All(nil)); len(got) != 0 {
		t.Fatalf("with no new tool present: %+v", got)
	}
	file := filepath.Join(home, ".gemini", "config", "mcp_config.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	got := Successions(fsys.OS{}, env, All(nil))
	if len(got) != 1 || got[0] != (provider.Succession{From: "gemini", To: "antigravity"}) {
		t.Fatalf("with antigravity present: %+v", got)
	}
	known := map[string]bool{}
	for _, n := range Names() {
		known[n] = true
	}
	for _, s := range successions {
		if !known[s.From] || !known[s.To] {
			t.Errorf("succession %+v names a tool Names does not", s)
		}
	}
}

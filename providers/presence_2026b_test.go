package providers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// TestPresentClineGooseAmpJunie: each of these tools is present by its own
// MCP file, never by a folder alone (~/.cline, ~/.junie/skills, the
// ~/.agents/skills goose reads, ~/.config/agents/skills Amp reads).
func TestPresentClineGooseAmpJunie(t *testing.T) {
	home := t.TempDir()
	for _, dir := range []string{".cline/skills", ".junie/skills", ".agents/skills", ".config/agents/skills", ".config/goose", ".config/amp"} {
		if err := os.MkdirAll(filepath.Join(home, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := provider.Env{Home: home, Getenv: func(string) (string, bool) { return "", false }}
	names := func() string { return strings.Join(PresentNames(fsys.OS{}, env, All(nil)), ",") }
	if got := names(); got != "" {
		t.Fatalf("folders alone made %q present", got)
	}
	for _, rel := range []string{".cline/data/settings/cline_mcp_settings.json", ".config/goose/config.yaml", ".config/amp/settings.json", ".junie/mcp/mcp.json"} {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := names(), "amp,cline,goose,junie"; got != want {
		t.Errorf("present = %q, want %q", got, want)
	}
}

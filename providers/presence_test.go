package providers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// TestPresent: a tool is present when its own config file exists; a shared
// or tool folder alone does not make it present.
func TestPresent(t *testing.T) {
	home := t.TempDir()
	write := func(rel string) string {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, dir := range []string{".gemini/antigravity", ".claude/skills", ".agents/skills", ".codex"} {
		if err := os.MkdirAll(filepath.Join(home, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := provider.Env{Home: home, Projects: []string{filepath.Join(home, "proj")}, Getenv: func(string) (string, bool) { return "", false }}
	names := func() string { return strings.Join(PresentNames(fsys.OS{}, env, All(nil)), ",") }
	if got := names(); got != "" {
		t.Fatalf("folders alone made %q present", got)
	}
	write(".cursor/mcp.json")
	// A project-level file does not make a tool present on the machine.
	write("proj/.vscode/mcp.json")
	// A symlinked file (a dotfiles checkout) counts.
	target := write("dots/settings.json")
	if err := os.Symlink(target, filepath.Join(home, ".gemini", "settings.json")); err != nil {
		t.Fatal(err)
	}
	if got, want := names(), "cursor,gemini"; got != want {
		t.Errorf("present = %q, want %q", got, want)
	}
	tool := &config.Tool{Name: "mine", Format: "json", Config: filepath.Join(home, ".mine.json"), ServersKey: "servers"}
	if PresentTool(fsys.OS{}, env, tool) {
		t.Error("a tool block's tool is present without its file")
	}
	write(".mine.json")
	if !PresentTool(fsys.OS{}, env, tool) {
		t.Error("a tool block's tool is not present with its file")
	}
}

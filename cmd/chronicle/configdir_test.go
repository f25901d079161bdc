package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/state"
)

// The folder a state was applied from compares through links, and sync's
// checkout is named as the folder of the repository it applies.
func TestStateDirNote(t *testing.T) {
	home := t.TempDir()
	m := &workspace{home: home, chronicleHome: filepath.Join(home, ".chronicle")}
	cfg := filepath.Join(home, "cfg")
	checkout := filepath.Join(m.chronicleHome, "source")
	for _, d := range []string{cfg, checkout} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	alias := filepath.Join(home, "alias")
	if err := os.Symlink(cfg, alias); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		applied, here, want string
	}{
		{"", cfg, ""},
		{cfg, cfg, ""},
		{cfg, alias, ""},
		{alias, cfg + "/", ""},
		{cfg, checkout, "Note: the state was last applied from ~/cfg, not from this configuration (~/.chronicle/source (the checkout chronicle sync applies))."},
		{checkout, cfg, "Note: the state was last applied from ~/.chronicle/source (the checkout chronicle sync applies), not from this configuration (~/cfg)."},
	}
	for _, tt := range tests {
		got := m.stateDirNote(&state.State{ConfigDir: tt.applied}, tt.here)
		if got != tt.want {
			t.Errorf("applied from %q, planned in %q:\n got %q\nwant %q", tt.applied, tt.here, got, tt.want)
		}
	}
	if r := resolvedDir(alias); r != resolvedDir(cfg) || !strings.HasSuffix(r, "/cfg") {
		t.Errorf("resolvedDir(%s) = %s", alias, r)
	}
}

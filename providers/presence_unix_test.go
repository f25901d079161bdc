//go:build unix

package providers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// Execute bits are a Unix notion (Windows finds programs by PATHEXT), so
// this test is built for Unix only.

// TestPresentOnPath: a tool with no config file is present when one of its
// programs is an executable file in a folder of PATH (read through
// Env.Getenv); a file without the execute bit, a folder of that name, a
// relative PATH entry and a tool with no program do not count.
func TestPresentOnPath(t *testing.T) {
	home := t.TempDir()
	bin := filepath.Join(t.TempDir(), "bin")
	other := filepath.Join(t.TempDir(), "other")
	for _, d := range []string{bin, other, filepath.Join(other, "codex")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	put := func(dir, name string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	put(bin, "zeditor", 0o755)    // zed, by its second name
	put(bin, "opencode2", 0o755)  // OpenCode 2 beside OpenCode 1
	put(bin, "gemini", 0o644)     // not executable
	put(other, "opencode", 0o755) // in a folder PATH does not name
	env := provider.Env{Home: home, Getenv: func(k string) (string, bool) {
		if k == "PATH" {
			return strings.Join([]string{"", "relative/bin", bin, filepath.Join(other, "codex")}, string(os.PathListSeparator)), true
		}
		return "", false
	}}
	if got, want := strings.Join(PresentNames(fsys.OS{}, env, All(nil)), ","), "opencode,zed"; got != want {
		t.Errorf("present = %q, want %q", got, want)
	}
	// The file test still comes first, whatever PATH says.
	noPath := provider.Env{Home: home, Getenv: func(string) (string, bool) { return "", false }}
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	put(filepath.Join(home, ".codex"), "config.toml", 0o600)
	if got, want := strings.Join(PresentNames(fsys.OS{}, noPath, All(nil)), ","), "codex"; got != want {
		t.Errorf("present without PATH = %q, want %q", got, want)
	}
	// A relative PATH entry is the working directory: never looked at.
	t.Chdir(bin)
	rel := provider.Env{Home: t.TempDir(), Getenv: func(k string) (string, bool) { return ".", k == "PATH" }}
	if got := PresentNames(fsys.OS{}, rel, All(nil)); len(got) != 0 {
		t.Errorf("a relative PATH entry made %q present", got)
	}
	for _, tool := range []string{"agents", "claude-desktop"} {
		if Programs(tool) != nil {
			t.Errorf("%s has programs %q; it is present by its file alone", tool, Programs(tool))
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/providers"
)

// hermeticPath returns path with every tool program (providers.Programs:
// claude, code, cursor, …) hidden, so that which tools a script's machine
// has depends on the script alone (a tool is present when its program is
// on PATH). A folder of path that holds none is kept as it is; one that
// holds some is replaced by a folder under work of links to its other
// entries, so the script still finds the programs it runs (stat, env, git).
func hermeticPath(work, path string) (string, error) {
	hidden := map[string]bool{}
	for _, tool := range providers.Names() {
		for _, p := range providers.Programs(tool) {
			hidden[p] = true
		}
	}
	dirs := filepath.SplitList(path)
	for i, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil || !holdsAny(entries, hidden) {
			continue
		}
		view := filepath.Join(work, ".path", strconv.Itoa(i))
		if err := os.MkdirAll(view, 0o755); err != nil {
			return "", err
		}
		for _, e := range entries {
			if hidden[e.Name()] {
				continue
			}
			if err := os.Symlink(filepath.Join(dir, e.Name()), filepath.Join(view, e.Name())); err != nil {
				return "", err
			}
		}
		dirs[i] = view
	}
	return strings.Join(dirs, string(os.PathListSeparator)), nil
}

func holdsAny(entries []os.DirEntry, names map[string]bool) bool {
	for _, e := range entries {
		if names[e.Name()] {
			return true
		}
	}
	return false
}

// TestHermeticPath: a folder of PATH that holds a tool program is replaced
// by links to its other entries; the others are kept as they are.
func TestHermeticPath(t *testing.T) {
	work := t.TempDir()
	withTool, plain := filepath.Join(work, "a"), filepath.Join(work, "b")
	for _, d := range []string{withTool, plain} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(withTool, "code"), filepath.Join(withTool, "stat"), filepath.Join(plain, "git")} {
		if err := os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got, err := hermeticPath(work, withTool+string(os.PathListSeparator)+plain)
	if err != nil {
		t.Fatal(err)
	}
	dirs := filepath.SplitList(got)
	if len(dirs) != 2 || dirs[0] == withTool || dirs[1] != plain {
		t.Fatalf("PATH = %q", got)
	}
	if _, err := os.Lstat(filepath.Join(dirs[0], "code")); !os.IsNotExist(err) {
		t.Errorf("code is still on PATH: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dirs[0], "stat")); err != nil {
		t.Errorf("stat went with it: %v", err)
	}
}

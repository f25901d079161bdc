package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

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

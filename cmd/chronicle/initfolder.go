package main

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// A newFolder is what init adds to a configuration directory, so that a
// failure before the configuration is complete takes all of it back: init
// never leaves a half-made folder. What was there before init is never
// touched.
type newFolder struct {
	sys fsys.System
	// made are the paths init created, the outermost first.
	made []string
}

// startFolder notes what of dir and dir/skills does not exist yet (dir's
// missing parents included), then creates them.
func startFolder(sys fsys.System, dir string) (*newFolder, error) {
	f := &newFolder{sys: sys}
	if top := firstMissing(sys, dir); top != "" {
		f.made = append(f.made, top)
	} else {
		f.adds(filepath.Join(dir, "skills"))
	}
	return f, sys.MkdirAll(filepath.Join(dir, "skills"), 0o755)
}

// adds notes that path is about to be created, unless it exists already
// or lies inside something init created.
func (f *newFolder) adds(path string) {
	for _, m := range f.made {
		if rel, err := filepath.Rel(m, path); err == nil && filepath.IsLocal(rel) || m == path {
			return
		}
	}
	if _, err := f.sys.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		f.made = append(f.made, path)
	}
}

// undo removes what init created, the innermost first.
func (f *newFolder) undo() {
	for i := len(f.made) - 1; i >= 0; i-- {
		_ = f.sys.RemoveAll(f.made[i])
	}
}

// firstMissing returns the outermost ancestor of dir (dir included) that
// does not exist, or "" when dir exists.
func firstMissing(sys fsys.Reader, dir string) string {
	missing := ""
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		if _, err := sys.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			return missing
		}
		missing = p
		if filepath.Dir(p) == p {
			return missing
		}
	}
}

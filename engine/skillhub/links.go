package skillhub

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// Link statuses: what a tool's skills folder has under a central skill's
// name.
const (
	Linked    = "linked"    // a link to the central copy
	Copied    = "copied"    // chronicle's tracked copy, unchanged
	Drift     = "drift"     // chronicle's tracked copy, changed since
	Directory = "directory" // a real folder chronicle does not track
	File      = "file"      // a regular file
	Dangling  = "dangling"  // a link to nothing
	Foreign   = "foreign"   // a link to somewhere other than the central copy
	None      = "none"      // nothing
	Unknown   = "unreadable"
)

// linkStatus says what is at path, a tool's place for the central skill at
// central. copies are chronicle's tracked copies by path.
func linkStatus(r fsys.Reader, path, central string, copies map[string]state.Link) string {
	info, err := r.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return None
	case err != nil:
		return Unknown
	case info.Mode()&fs.ModeSymlink != 0:
		to, err := skills.Resolve(r, path)
		if err != nil {
			return Dangling
		}
		if _, err := r.Stat(to); err != nil {
			return Dangling
		}
		if filepath.Clean(to) == filepath.Clean(central) {
			return Linked
		}
		return Foreign
	case info.IsDir():
		c, tracked := copies[filepath.Clean(path)]
		if !tracked {
			return Directory
		}
		if h, err := skills.Hash(r, path); err != nil || h != c.Hash {
			return Drift
		}
		return Copied
	}
	return File
}

// trackedCopies returns chronicle's tracked copies (link mode copy) by path.
func trackedCopies(st *state.State) map[string]state.Link {
	out := map[string]state.Link{}
	if st == nil {
		return out
	}
	for _, l := range st.Links {
		if l.Mode == state.ModeCopy {
			out[filepath.Clean(l.Path)] = l
		}
	}
	return out
}

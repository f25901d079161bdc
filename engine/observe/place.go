package observe

import (
	"errors"
	"io/fs"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// Place observes a path in a skills folder or the central store, without
// following a link at the path itself: a link is its target, a folder its
// tree hash, a file its content hash.
func Place(r fsys.Reader, path string) Observation {
	return place(r, path, func(dir string) (string, error) { return skills.Hash(r, dir) })
}

// PlaceWith is Place read through h, which hashes a folder once for all
// the observations and hashes it serves (a plan's).
func PlaceWith(h *skills.Hasher, path string) Observation {
	return place(h.Reader(), path, h.Hash)
}

func place(r fsys.Reader, path string, hash func(dir string) (string, error)) Observation {
	info, err := r.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Observation{Kind: Absent}
	case err != nil:
		return Observation{Kind: Unreadable, Error: err.Error()}
	case info.Mode()&fs.ModeSymlink != 0:
		t, err := r.Readlink(path)
		if err != nil {
			return Observation{Kind: Unreadable, Error: err.Error()}
		}
		return Observation{Kind: Symlink, Target: t}
	case info.IsDir():
		h, err := hash(path)
		if err != nil {
			return Observation{Kind: Unreadable, Error: err.Error()}
		}
		return Observation{Kind: Dir, Hash: h}
	}
	data, err := r.ReadFile(path)
	if err != nil {
		return Observation{Kind: Unreadable, Error: err.Error()}
	}
	return Observation{Kind: File, Hash: toolfile.Hash(data)}
}

// EntryIn observes the entry named name among entries (read from the file
// f): its canonical hash, or absent, with the file's facts.
func EntryIn(f *toolfile.File, entries []provider.Entry, name string) Observation {
	var found *provider.Entry
	for i := range entries {
		if entries[i].Name == name {
			found = &entries[i]
		}
	}
	return Found(f, found)
}

// Found observes the entry e found in the file f (nil: absent).
func Found(f *toolfile.File, e *provider.Entry) Observation {
	o := Observation{Kind: Absent, File: Facts(f)}
	if e != nil {
		o.Kind, o.Hash = Entry, EntryHash(*e)
	}
	return o
}

// EntryHash is the hash of an entry as stored, which the state records.
func EntryHash(e provider.Entry) string { return toolfile.Hash(e.Canonical) }

// Facts returns the facts of a tool file as a View read it.
func Facts(f *toolfile.File) *FileFacts {
	if f == nil || !f.Exists || f.Info == nil {
		return &FileFacts{}
	}
	facts := &FileFacts{Exists: true, Mode: f.Info.Mode().Perm()}
	facts.Links, facts.UID, facts.GID = ownership(f.Info)
	return facts
}

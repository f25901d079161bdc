package observe

import (
	"fmt"
	"io/fs"
	"strings"
)

// Kinds of what can be at a place.
const (
	Absent     = "absent"     // nothing
	Entry      = "entry"      // a tool's config entry (Hash: its canonical hash)
	Symlink    = "symlink"    // a symbolic link (Target)
	Dir        = "dir"        // a real folder (Hash: its tree hash)
	File       = "file"       // a regular file (Hash: its content hash)
	Unreadable = "unreadable" // something that could not be looked at (Error)
)

// An Observation is what was at a place when it was looked at.
type Observation struct {
	Kind   string `json:"kind"`
	Hash   string `json:"hash,omitempty"`
	Target string `json:"target,omitempty"`
	Error  string `json:"error,omitempty"`
	// File describes the tool file holding an entry (or its absence), for
	// entries: a file that became read-only or hard-linked since the plan
	// is not the file the plan saw.
	File *FileFacts `json:"file,omitempty"`
}

// FileFacts are the properties of a tool file that decide how it may be
// written: its mode, its link count, and who owns it.
type FileFacts struct {
	Exists bool        `json:"exists"`
	Mode   fs.FileMode `json:"mode,omitempty"`
	Links  uint64      `json:"links,omitempty"`
	UID    int         `json:"uid"`
	GID    int         `json:"gid"`
}

// Equal reports whether two observations describe the same thing.
func (o Observation) Equal(p Observation) bool {
	if o.Kind != p.Kind || o.Hash != p.Hash || o.Target != p.Target {
		return false
	}
	if (o.File == nil) != (p.File == nil) {
		return false
	}
	return o.File == nil || *o.File == *p.File
}

// String describes the observation for a person.
func (o Observation) String() string {
	switch o.Kind {
	case Absent:
		return "nothing"
	case Entry:
		return "an entry (" + short(o.Hash) + ")"
	case Symlink:
		return "a link to " + o.Target
	case Dir:
		return "a real directory (" + short(o.Hash) + ")"
	case File:
		return "a file (" + short(o.Hash) + ")"
	case Block:
		return "a block (" + short(o.Hash) + ")"
	case Unreadable:
		return "something unreadable (" + o.Error + ")"
	}
	return o.Kind
}

// Difference explains how now differs from o, the way it was seen before:
// "was nothing, now a real directory (sha256:1234…)".
func (o Observation) Difference(now Observation) string {
	if o.Kind == now.Kind && o.Hash == now.Hash && o.Target == now.Target && o.File != nil && now.File != nil {
		return "the file " + o.File.difference(*now.File)
	}
	return "was " + o.String() + ", now " + now.String()
}

func (f FileFacts) difference(now FileFacts) string {
	var parts []string
	if f.Exists != now.Exists {
		if now.Exists {
			return "was created"
		}
		return "was removed"
	}
	if f.Mode != now.Mode {
		parts = append(parts, fmt.Sprintf("mode %#o → %#o", uint32(f.Mode), uint32(now.Mode)))
	}
	if f.Links != now.Links {
		parts = append(parts, fmt.Sprintf("hard links %d → %d", f.Links, now.Links))
	}
	if f.UID != now.UID || f.GID != now.GID {
		parts = append(parts, fmt.Sprintf("owner %d:%d → %d:%d", f.UID, f.GID, now.UID, now.GID))
	}
	return strings.Join(parts, ", ")
}

func short(h string) string {
	if len(h) > 19 {
		return h[:19] + "…"
	}
	return h
}

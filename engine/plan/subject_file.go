package plan

import (
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/own"
)

// A fileSubject is a rule, command or agent file chronicle owns whole, as
// the ownership ledger sees it: chronicle owns every byte of it.
type fileSubject struct {
	b       *builder
	path    string
	seen    observe.Observation
	current string // the file's text, when it is a file
	want    string // the declared text ("" for a removal)
}

// fileSubject describes the owned file at path, seen as before.
func (b *builder) fileSubject(path string, before observe.Observation, want string) fileSubject {
	s := fileSubject{b: b, path: path, seen: before, want: want}
	if before.Kind == observe.File {
		s.current = string(b.view.File(path).Data)
	}
	return s
}

func (s fileSubject) What() string { return s.path }

func (s fileSubject) Seen() own.Seen {
	switch s.seen.Kind {
	case observe.Absent:
		return own.Seen{Absent: true}
	case observe.File:
		return own.Seen{Hash: s.seen.Hash, Declared: s.current == s.want, There: ""}
	}
	return own.Seen{Foreign: true, There: describe(s.seen, s.path)}
}

func (s fileSubject) Diff() string {
	if s.seen.Kind != observe.File {
		return ""
	}
	return s.b.fileDiff(s.path, s.current, s.want)
}

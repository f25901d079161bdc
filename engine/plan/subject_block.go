package plan

import (
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/own"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// A blockSubject is a rule's marked block in a file shared with the user,
// as the ownership ledger sees it: chronicle owns the block's body, never
// the text around it.
type blockSubject struct {
	b             *builder
	file          *toolfile.File
	id            string
	want, current string
	seen          observe.Observation
	// bare says the file holds the declared text and nothing else, without
	// markers: a hand-written file the rule was made from.
	bare bool
}

func (s blockSubject) What() string { return "block " + s.id + " in " + s.file.Path }

func (s blockSubject) Seen() own.Seen {
	if s.bare {
		return own.Seen{Absent: true, Bare: true}
	}
	if s.seen.Kind == observe.Absent {
		return own.Seen{Absent: true}
	}
	return own.Seen{Hash: s.seen.Hash, Declared: s.current == s.want}
}

func (s blockSubject) Diff() string { return s.b.blockDiff(s.file.Path, s.id, s.current, s.want) }

package plan

import (
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/own"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// A linkSubject is a skill in a tool's skills folder, as the ownership
// ledger sees it: a symlink into the central store (chronicle owns its
// target) or a tracked copy (chronicle owns its tree). Anything else at
// the place — a real folder where the link goes, a link elsewhere, a copy
// changed since — is foreign: never written over, only moved aside by
// --replace.
type linkSubject struct {
	path   string
	mode   string // config.ModeSymlink or config.ModeCopy
	seen   observe.Observation
	target string      // the central copy a link points at
	hash   string      // a copy's declared tree hash
	rec    *state.Link // what chronicle made there, nil when nothing
	there  string      // what is at the place, when a kinder word than describe's fits
}

func (s linkSubject) copy() bool { return s.mode == config.ModeCopy }

// record is the ledger's record of the link or copy, when chronicle made
// one of this mode there.
func (s linkSubject) record() *own.Record {
	if s.rec == nil || (s.rec.Mode == state.ModeCopy) != s.copy() {
		return nil
	}
	if s.copy() {
		return &own.Record{Hash: s.rec.Hash, Rendered: s.rec.Hash}
	}
	return &own.Record{Hash: s.rec.Target, Rendered: s.rec.Target}
}

func (s linkSubject) What() string {
	if s.copy() {
		return "the copy at " + s.path
	}
	return "the link " + s.path + " to " + s.target
}

func (s linkSubject) Seen() own.Seen {
	switch {
	case s.seen.Kind == observe.Absent:
		return own.Seen{Absent: true}
	case !s.copy() && s.seen.Kind == observe.Symlink && s.seen.Target == s.target:
		return own.Seen{Hash: s.target, Declared: true}
	case s.copy() && s.seen.Kind == observe.Dir && (s.seen.Hash == s.hash || s.rec != nil && s.seen.Hash == s.rec.Hash):
		return own.Seen{Hash: s.seen.Hash, Declared: s.seen.Hash == s.hash}
	}
	there := s.there
	if there == "" {
		there = describe(s.seen, s.path)
	}
	return own.Seen{Foreign: true, There: there}
}

// Diff is empty: a skill's files are diffed once, at the skill's change.
func (s linkSubject) Diff() string { return "" }

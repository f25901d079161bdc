package apply

import (
	"errors"
	"fmt"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/plan"
)

// A step is one unit of apply: one change, or every entry change of one
// tool file, carried out together as that file's transaction.
type step struct {
	change plan.Change
	file   []plan.Change
	// blocks are the block changes of one shared file, made together as
	// that file's transaction (blockfile.go).
	blocks []plan.Change
	// rules are the rule changes of one list of the same rank, made
	// together as that list's transaction (rulefile.go).
	rules []plan.Change
}

// rank puts changes in a safe order: settings, then skills into the store
// and permission rules, then links and entries, then removals of links and
// rules, then removals of the skills they pointed to, then removed
// settings. A rule denying a server's tool is written before the server's
// entry and removed after it, so the server is never callable without it.
func rank(c plan.Change) int {
	del := c.Action == plan.Delete
	switch c.Kind {
	case plan.KindRule:
		if del {
			return 3
		}
		return 1
	case plan.KindSkill:
		if del {
			return 4
		}
		return 1
	case plan.KindLink:
		if del {
			return 3
		}
		return 2
	case plan.KindEntry, plan.KindBlock:
		return 2
	case plan.KindFile:
		if del {
			return 3
		}
		return 2
	case plan.KindToolFile:
		return 3 // after the removal of its entries
	}
	if del {
		return 5
	}
	return 0
}

// ordered returns the changes apply carries out, in rank order; conflicts,
// notes and no-ops are left out.
func ordered(changes []plan.Change) []plan.Change {
	var out []plan.Change
	for r := 0; r <= 5; r++ {
		for _, c := range changes {
			if c.Action.Changes() && rank(c) == r {
				out = append(out, c)
			}
		}
	}
	return out
}

// steps groups ordered changes into steps: the entry changes of one file
// become one step, at the place of the file's first change. Within a rank,
// links come before tool files, so that each kind forms one batch
// (batches): the two are independent of each other.
func steps(changes []plan.Change) []step {
	out := fileSteps(changes)
	slices.SortStableFunc(out, func(x, y step) int {
		rx, ry := rank(x.first()), rank(y.first())
		if rx != ry {
			return rx - ry
		}
		return boolInt(len(x.file) > 0) - boolInt(len(y.file) > 0)
	})
	return out
}

func (s step) first() plan.Change {
	if len(s.file) > 0 {
		return s.file[0]
	}
	if len(s.blocks) > 0 {
		return s.blocks[0]
	}
	if len(s.rules) > 0 {
		return s.rules[0]
	}
	return s.change
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func fileSteps(changes []plan.Change) []step {
	var out []step
	at := map[string]int{}
	blocksAt := map[string]int{}
	rulesAt := map[string]int{}
	for _, c := range changes {
		if c.Kind == plan.KindRule && c.Rule != nil {
			key := fmt.Sprint(c.Rule.List.File, "\x00", rank(c))
			if i, ok := rulesAt[key]; ok {
				out[i].rules = append(out[i].rules, c)
				continue
			}
			rulesAt[key] = len(out)
			out = append(out, step{rules: []plan.Change{c}})
			continue
		}
		if c.Kind == plan.KindBlock {
			if i, ok := blocksAt[c.Block.File]; ok {
				out[i].blocks = append(out[i].blocks, c)
				continue
			}
			blocksAt[c.Block.File] = len(out)
			out = append(out, step{blocks: []plan.Change{c}})
			continue
		}
		if c.Kind != plan.KindEntry {
			out = append(out, step{change: c})
			continue
		}
		file := c.Entry.Location.File
		if i, ok := at[file]; ok {
			out[i].file = append(out[i].file, c)
			continue
		}
		at[file] = len(out)
		out = append(out, step{file: []plan.Change{c}})
	}
	return out
}

// A skippedError says a change was not attempted because one it depends on
// failed.
type skippedError struct {
	addr, on string
}

func (e *skippedError) Error() string {
	return fmt.Sprintf("%s: skipped, because %s failed", e.addr, e.on)
}

// dependency returns why c must be skipped, or nil: a link to a skill whose
// import failed would dangle, and a central skill must stay while a link to
// it could not be removed.
func (a *applier) dependency(c plan.Change) error {
	switch {
	case c.Kind == plan.KindLink && c.Action != plan.Delete && c.Link != nil:
		if _, failed := a.failed["skill."+c.Link.Skill]; failed {
			return &skippedError{c.Address, "skill." + c.Link.Skill}
		}
	case c.Kind == plan.KindToolFile && c.ToolFile != nil:
		for _, addr := range c.ToolFile.Entries {
			if _, failed := a.failed[addr]; failed {
				return &skippedError{c.Address, addr}
			}
		}
	case c.Kind == plan.KindSkill && c.Action == plan.Delete:
		for addr := range a.failed {
			for _, l := range a.st.Links {
				if l.Address == addr && l.Target == c.Skill.Store {
					return &skippedError{c.Address, addr}
				}
			}
		}
	}
	return nil
}

// fail records that c failed with err, for the changes that depend on it.
// Its journal entry stays, for the next plan to recognise what it may have
// left at its target, unless it touched nothing: refused by its
// precondition, or skipped.
func (a *applier) fail(c plan.Change, err error) {
	a.failed[c.Address] = err
	var changed *changedError
	var skipped *skippedError
	if errors.As(err, &changed) || errors.As(err, &skipped) {
		a.st.Done(c.Address) // the intent is void
	}
}

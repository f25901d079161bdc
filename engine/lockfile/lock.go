package lockfile

import (
	"fmt"
	"sort"
	"strings"
)

// A Block is a git skill block of the configuration, as chronicle lock
// sees it.
type Block struct {
	Name string // the block's label
	URL  string
	Ref  string
}

// An Action is what chronicle lock did to one entry.
type Action byte

// The actions, whose text form is the symbol chronicle lock prints.
const (
	Added     Action = '+' // a block had no entry: locked at its tip
	Upgraded  Action = '~' // --upgrade moved the entry to a new tip, URL or ref
	Unchanged Action = ' ' // --upgrade found the entry at its tip already
	Removed   Action = '-' // --upgrade dropped the entry of a block that is gone
)

// A Change is one entry chronicle lock added, moved, kept or dropped.
// Before is the zero Skill for an added entry; After for a removed one.
type Change struct {
	Action        Action
	Before, After Skill
}

// Addr is the address of the entry the change concerns.
func (c Change) Addr() string {
	if c.Action == Added {
		return c.After.Addr()
	}
	return c.Before.Addr()
}

// Tip returns the commit the ref of a block names on its remote now.
type Tip func(Block) (string, error)

// Lock brings the file up to date with the git skill blocks: a block
// without an entry gets one at its tip; an entry is never moved unless
// upgrade names it, and then goes to its block's current tip. With
// upgradeAll, entries of blocks that are gone are dropped too. A kept
// entry whose URL or ref differs from its block is an error naming the
// upgrade to run, and then nothing changes. The changes are returned in
// address order; the file is changed in memory only.
func (f *File) Lock(blocks []Block, upgrade map[string]bool, upgradeAll bool, tip Tip) ([]Change, error) {
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].Name < blocks[j].Name })
	var stale []string
	for _, b := range blocks {
		e, ok := f.Skills[b.Name]
		if ok && !upgradeAll && !upgrade[b.Name] && (e.URL != b.URL || e.Ref != b.Ref) {
			stale = append(stale, fmt.Sprintf("%s: the lock holds %s (ref %q), the block says %s (ref %q): run chronicle lock --upgrade %s", e.Addr(), e.URL, e.Ref, b.URL, b.Ref, e.Addr()))
		}
	}
	if len(stale) > 0 {
		what := "a lock entry no longer matches its skill block"
		if len(stale) > 1 {
			what = "lock entries no longer match their skill blocks"
		}
		return nil, fmt.Errorf("%s; nothing was changed:\n  %s", what, strings.Join(stale, "\n  "))
	}
	var changes []Change
	next := map[string]Skill{}
	seen := map[string]bool{}
	for _, b := range blocks {
		seen[b.Name] = true
		e, ok := f.Skills[b.Name]
		if ok && !upgradeAll && !upgrade[b.Name] {
			next[b.Name] = e
			continue
		}
		commit, err := tip(b)
		if err != nil {
			return nil, fmt.Errorf("skill.%s: %w", b.Name, err)
		}
		s := Skill{Name: b.Name, URL: b.URL, Ref: b.Ref, Commit: commit}
		next[b.Name] = s
		switch {
		case !ok:
			changes = append(changes, Change{Action: Added, After: s})
		case e == s:
			changes = append(changes, Change{Action: Unchanged, Before: e, After: s})
		default:
			changes = append(changes, Change{Action: Upgraded, Before: e, After: s})
		}
	}
	for _, name := range f.Names() {
		if seen[name] {
			continue
		}
		if upgradeAll {
			changes = append(changes, Change{Action: Removed, Before: f.Skills[name]})
			continue
		}
		next[name] = f.Skills[name]
	}
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].Addr() < changes[j].Addr() })
	f.Skills = next
	return changes, nil
}

// New is an empty lock file, for a configuration that has none yet.
func New() *File { return &File{Skills: map[string]Skill{}} }

package plan

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/chronicle-dev/chronicle/engine/hubtoken"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// dryRun makes, in memory, every edit the plan would make to each tool file,
// exactly as apply will. Whatever the tool cannot carry out — an entry
// written in a form chronicle does not rewrite (codex inline tables), a name
// held twice, a result that does not verify — becomes an error of the plan
// with the reason, never a change promised and then refused.
func (b *builder) dryRun() {
	byFile := map[string][]int{}
	for i, c := range b.plan.Changes {
		if writesEntry(c) {
			byFile[c.Entry.Location.File] = append(byFile[c.Entry.Location.File], i)
		}
	}
	var refused []int
	b.replaceable()
	for _, file := range sortedKeys(byFile) {
		idx := byFile[file]
		p := b.tools[b.plan.Changes[idx[0]].Entry.Location.Tool]
		doc, _, err := b.view.Document(p, file)
		if err != nil {
			continue // reported when the entries were read
		}
		edits := make([]provider.Edit, len(idx))
		for k, i := range idx {
			edits[k] = EditOf(b.plan.Changes[i])
		}
		if next, err := doc.Edit(edits); err == nil {
			b.emptied(file, p, idx, next)
			continue
		}
		// Find which edits the tool refuses, to say so for each.
		found := len(refused)
		for k, i := range idx {
			if _, err := doc.Edit(edits[k : k+1]); err != nil {
				c := b.plan.Changes[i]
				b.diag("error", c.Address, "Cannot edit "+c.Entry.Location.Tool+"'s config", "%s", err)
				refused = append(refused, i)
			}
		}
		if len(refused) == found {
			// Each edit alone is fine, together they are not.
			c := b.plan.Changes[idx[0]]
			_, err := doc.Edit(edits)
			b.diag("error", c.Address, "Cannot edit "+c.Entry.Location.Tool+"'s config", "%s", err)
			refused = append(refused, idx...)
		}
	}
	if len(refused) == 0 {
		return
	}
	sort.Ints(refused)
	for _, i := range slices.Backward(slices.Compact(refused)) {
		b.plan.Changes = slices.Delete(b.plan.Changes, i, i+1)
	}
}

// replaceable tries, in memory, the edit --replace would make for each
// entry conflict. Where the tool refuses it (a name held twice in the
// file), no flag helps and --replace would fail in apply: the reason says
// what to fix instead of offering it.
func (b *builder) replaceable() {
	for i, c := range b.plan.Changes {
		if c.Kind != KindEntry || c.Action != Conflict || c.Entry == nil {
			continue
		}
		if err := Refusal(b.view, b.tools[c.Entry.Location.Tool], EditOf(c)); err != nil && !errors.Is(err, errUnread) {
			b.plan.Changes[i].Reason = "chronicle cannot write this entry, with or without --replace: " + err.Error()
		}
	}
}

// errUnread marks a Refusal that comes from reading the tool file, not
// from its editor: the plan reports those where it read the entries.
var errUnread = errors.New("the tool file cannot be read")

// Refusal makes one edit of a tool file in memory, exactly as apply will,
// and returns why the tool's editor refuses it (a YAML anchor or alias, a
// flow map, a name held twice, a result that does not verify), or nil.
// The plan asks it before offering --replace; adopt and init ask it before
// linking an entry they take over, so that the first plan after a takeover
// is never an error (decision 0126).
func Refusal(view *toolfile.View, p provider.Provider, edit provider.Edit) error {
	doc, _, err := view.Document(p, edit.Location.File)
	if err != nil {
		return fmt.Errorf("%w: %w", errUnread, err)
	}
	_, err = doc.Edit([]provider.Edit{edit})
	return err
}

// writesEntry reports whether c is an entry change apply carries out.
func writesEntry(c Change) bool {
	if c.Kind != KindEntry || c.Entry == nil || c.Entry.RecordOnly {
		return false
	}
	switch c.Action {
	case Create, Update, Delete, Replace:
		return true
	}
	return false
}

// EditOf is the edit an entry change makes to its tool's file, the hub
// token masked (the plan's dry run).
func EditOf(c Change) provider.Edit { return EditWith(c, hubtoken.Masked) }

// EditWith is EditOf with token, the content of the hub's token file, in
// place of the entry's reference to it (EntrySpec.HubToken): apply's edit.
func EditWith(c Change, token string) provider.Edit {
	e := provider.Edit{Location: c.Entry.Location, Name: c.Entry.Entry.Name}
	if c.Action != Delete {
		entry := c.Entry.Entry
		if c.Entry.HubToken != "" {
			entry.Definition = hubtoken.Inline(entry.Definition, c.Entry.HubToken, token)
		}
		e.Entry = &entry
		e.Drop = c.Entry.DropExtra
	}
	return e
}

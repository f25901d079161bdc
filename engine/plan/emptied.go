package plan

import (
	"bytes"
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// ToolFileAddress is the address of a tool file's removal:
// tool_file["/home/me/.cursor/mcp.json"].
func ToolFileAddress(path string) string { return fmt.Sprintf("tool_file[%q]", path) }

// emptied plans the removal of a tool file that the plan's entry removals
// (the changes idx, all of file) leave empty, when chronicle created it.
// next is the file as those removals leave it. The file goes only when it
// is exactly what chronicle's provider writes for a document that holds
// nothing (emptyDocument): a key, a comment or a layout of the user's
// keeps it, as does a file the state does not record as created (the user
// had it before), a symlink (a dotfiles checkout) or a hard-linked file.
func (b *builder) emptied(file string, p provider.Provider, idx []int, next []byte) {
	if !b.st.Created(file) {
		return
	}
	var entries []string
	var locs []provider.Location
	var names []string
	for _, i := range idx {
		c := b.plan.Changes[i]
		if c.Action != Delete {
			return
		}
		entries = append(entries, c.Address)
		locs = append(locs, c.Entry.Location)
		names = append(names, c.Entry.Entry.Name)
	}
	info, err := b.in.Reader.Lstat(file)
	if err != nil || !info.Mode().IsRegular() {
		return
	}
	if facts := observe.Facts(b.view.File(file)); !facts.Exists || facts.Links > 1 {
		return
	}
	empty, ok := emptyDocument(p, file, locs, names)
	if !ok || !bytes.Equal(next, empty) {
		return
	}
	before := observe.Observation{Kind: observe.File, Hash: toolfile.Hash(next)}
	b.plan.Changes = append(b.plan.Changes, Change{
		Address: ToolFileAddress(file), Kind: KindToolFile, Action: Delete, Path: file, Before: &before,
		ToolFile: &ToolFileSpec{Tool: p.Name(), Entries: entries},
		Reason:   "chronicle created this file, and nothing is left in it once its last entry is removed; removed too (a backup is kept)",
	})
}

// emptyDocument returns what p writes for file when the entries named
// names are written into a file that does not exist and removed again:
// the provider's form of an empty document ("{}\n" for the JSON tools,
// nothing for codex). ok is false when the provider cannot say.
func emptyDocument(p provider.Provider, file string, locs []provider.Location, names []string) (empty []byte, ok bool) {
	doc, err := p.Parse(file, nil)
	if err != nil {
		return nil, false
	}
	probe := provider.Entry{Definition: service.Definition{Transport: service.Stdio, Command: "chronicle"}, Enabled: true}
	set := make([]provider.Edit, len(locs))
	unset := make([]provider.Edit, len(locs))
	for i := range locs {
		e := probe
		e.Name = names[i]
		set[i] = provider.Edit{Location: locs[i], Name: names[i], Entry: &e}
		unset[i] = provider.Edit{Location: locs[i], Name: names[i]}
	}
	full, err := doc.Edit(set)
	if err != nil {
		return nil, false
	}
	if doc, err = p.Parse(file, full); err != nil {
		return nil, false
	}
	if empty, err = doc.Edit(unset); err != nil {
		return nil, false
	}
	return empty, true
}

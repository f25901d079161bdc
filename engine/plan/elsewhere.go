package plan

import (
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// An elsewhereItem is an item of a tool that reads its kind from more than
// one folder (Copilot CLI's agents: .github/agents, and a project's
// .claude/agents as Claude Code writes them).
type elsewhereItem struct {
	addr   string
	places []provider.Place
	in     *config.Instruction
	r      provider.Rendered
}

// readElsewhere plans the items of tools that read a kind from several
// folders: an item another address writes, with the same text, into one of
// the tool's other folders is read from there and not written twice (a
// Read change, as for tools sharing a folder: decision 0104); any other is
// written at the tool's first place. Run once every other file of the plan
// is claimed, so the order of the links does not matter.
func (b *builder) readElsewhere() {
	for _, it := range b.instr.elsewhere {
		if !b.readFromOther(it) {
			b.ownedFile(it.addr, it.places[0], it.in, it.r)
		}
	}
}

// readFromOther reports whether another address writes the item into one
// of the tool's other folders as the tool reads it there, and says so in
// the plan.
func (b *builder) readFromOther(it elsewhereItem) bool {
	for _, pl := range it.places[1:] {
		path := pl.Path(it.in.Name)
		other, taken := b.instr.claims[path]
		if !taken || other == it.addr {
			continue
		}
		r := pl.Format.Render(it.in.Instruction)
		if r.Refused != "" || b.instr.contents[path] != string(r.Content) {
			continue
		}
		if b.plan.Has(other) {
			b.plan.Changes = append(b.plan.Changes, Change{Address: it.addr, Kind: KindFile, Action: Read, Path: path, Reason: "the same file as " + other})
		}
		return true
	}
	return false
}

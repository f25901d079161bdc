package plan

import (
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/own"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/textdiff"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// ownedFile plans one rule, command or agent file chronicle owns whole. A
// file of that name chronicle did not write is never replaced without
// --replace (which keeps it in a backup set); one chronicle wrote and
// someone edited since is drift. Two addresses writing the same file (tools
// reading one folder) share it: the first writes it.
func (b *builder) ownedFile(addr string, place provider.Place, in *config.Instruction, r provider.Rendered) {
	path := place.Path(in.Name)
	content := string(r.Content)
	if other, taken := b.instr.claims[path]; taken {
		if b.instr.contents[path] != content {
			b.diag("error", addr, "Two texts for one file", "%s and %s both write %s, with different text.", other, addr, path)
			return
		}
		if b.plan.Has(other) { // nothing to say about a file nobody changes
			b.plan.Changes = append(b.plan.Changes, Change{Address: addr, Kind: KindFile, Action: Read, Path: path, Reason: "the same file as " + other})
		}
		return
	}
	b.instr.claims[path], b.instr.contents[path] = addr, content
	spec := &FileSpec{Tool: place.Tool, Kind: in.Kind, Name: in.Name, Path: path, Content: content, Rendered: toolfile.Hash(r.Content)}
	before := observe.Place(b.in.Reader, path)
	c := Change{Address: addr, Kind: KindFile, Path: path, File: spec, Before: &before}
	rec := b.st.FileAt(path)
	var recorded *own.Record
	if rec != nil {
		recorded = &own.Record{Address: rec.Address, Hash: rec.Hash, Rendered: rec.Rendered}
		if rec.Address != addr {
			spec.Takeover = rec.Address
		}
	}
	d := own.Decide(own.Case{
		Address: addr, Subject: b.fileSubject(path, before, content), Want: spec.Rendered, Record: recorded,
		Replace: b.in.Replace[addr], Import: b.in.Import[addr], Ignored: b.ignored(addr),
		Intended: b.st.Intended(state.Intent{Address: addr, Path: path, Hash: spec.Rendered}),
		AsIs:     own.KeepAsIs, MovesAside: true, Commands: b.in.Commands,
	})
	b.decided(&c, d)
	spec.RecordOnly = d.RecordOnly
	b.add(c)
}

// fileRemovals plans the removal of the files chronicle owns that no
// address writes any more: removed when they are as chronicle wrote them,
// else left as conflicts.
func (b *builder) fileRemovals() {
	for _, rec := range b.st.Files {
		if claim := b.instr.claims[rec.Path]; claim != "" || b.kept[rec.Address] {
			continue // still written (by its address or another: a renamed link), or kept
		}
		before := observe.Place(b.in.Reader, rec.Path)
		c := Change{Address: rec.Address, Kind: KindFile, Action: Delete, Path: rec.Path, Before: &before,
			File: &FileSpec{Tool: rec.Tool, Kind: rec.Kind, Path: rec.Path, Folder: rec.Folder}}
		b.decided(&c, own.Release(own.Case{Address: rec.Address, Subject: b.fileSubject(rec.Path, before, ""),
			Record: &own.Record{Address: rec.Address, Hash: rec.Hash}, Ignored: b.ignored(rec.Address), Commands: b.in.Commands}))
		b.plan.Changes = append(b.plan.Changes, c)
	}
}

// fileDiff shows a file as it is against as it would be written.
func (b *builder) fileDiff(path, current, want string) string {
	return b.maskDiff(textdiff.Unified(path+" (on disk)", path+" (declared)", ensureNL(current), ensureNL(want)))
}

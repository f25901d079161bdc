package plan

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/markers"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/own"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/textdiff"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// sharedParse reads a shared file through the plan's View and parses its
// markers, once per plan. A file that does not exist parses as empty.
func (b *builder) sharedParse(path string) (*toolfile.File, *markers.File, error) {
	f := b.view.File(path)
	if f.Err != nil {
		return f, nil, fmt.Errorf("%s: %w", path, f.Err)
	}
	v, err := b.view.Parsed(path, func(path string, src []byte) (any, error) { return markers.Parse(path, src) })
	if err != nil {
		return f, nil, err
	}
	if v == nil {
		empty, _ := markers.Parse(path, nil)
		return f, empty, nil
	}
	return f, v.(*markers.File), nil
}

// planSharedFile plans the blocks of one shared file: each wanted block
// against what is there and what the state records, then each recorded
// block no longer wanted. A file that cannot be read, or whose markers do
// not pair up, is an error for every block of it, and nothing there changes.
func (b *builder) planSharedFile(path string) {
	sf := b.instr.shared[path]
	if sf == nil {
		sf = &sharedFile{path: path, blocks: map[string]*blockWant{}}
	}
	recs := map[string]state.Block{}
	for _, r := range b.st.BlocksIn(path) {
		recs[r.ID] = r
	}
	f, parsed, err := b.sharedParse(path)
	if err != nil {
		addr := ""
		if len(sf.order) > 0 {
			addr = sf.blocks[sf.order[0]].wanted[0]
		} else {
			for _, r := range recs {
				addr = r.WantedBy[0]
				break
			}
		}
		b.unreadable[path] = true
		b.diag("error", addr, "Cannot edit "+filepath.Base(path), "%s", err)
		for _, id := range sf.order {
			for _, a := range sf.blocks[id].wanted {
				b.desired[a] = true
			}
		}
		return
	}
	for _, id := range sf.order {
		b.planBlock(f, parsed, id, sf.blocks[id], recs[id])
	}
	var gone []string
	for id, r := range recs {
		if sf.blocks[id] == nil && !b.anyOf(b.kept, r.WantedBy) {
			gone = append(gone, id)
		}
	}
	slices.Sort(gone)
	emptied := len(sf.blocks) == 0 && fileCreated(recs) && leftEmpty(parsed, f, gone)
	for _, id := range gone {
		b.removeBlock(f, parsed, recs[id], emptied)
	}
}

// planBlock plans one wanted block.
func (b *builder) planBlock(f *toolfile.File, parsed *markers.File, id string, w *blockWant, rec state.Block) {
	all := slices.Clone(w.wanted)
	for _, a := range rec.WantedBy {
		if b.kept[a] && !slices.Contains(all, a) {
			all = append(all, a) // wanted still, by a tool or project this machine does not plan
		}
	}
	wanted := slices.Sorted(slices.Values(all))
	addr := wanted[0]
	before := observe.BlockIn(f, parsed, id)
	spec := &BlockSpec{File: f.Path, ID: id, Body: w.body, Wanted: wanted}
	c := Change{Address: addr, Kind: KindBlock, Path: f.Path, Block: spec, Before: &before}
	current := ""
	if blk, ok := parsed.Block(id); ok {
		current = parsed.Body(blk)
	}
	subject := blockSubject{b: b, file: f, id: id, want: w.body, current: current, seen: before,
		bare: before.Kind == observe.Absent && len(parsed.Blocks()) == 0 && f.Exists && instruction.Normal(string(f.Data)) == w.body}
	var recorded *own.Record
	if rec.ID != "" {
		recorded = &own.Record{Hash: rec.Hash, Rendered: rec.Hash} // a block's projection is its body, as declared
	}
	replace := b.anyOf(b.in.Replace, wanted)
	d := own.Decide(own.Case{
		Address: addr, Subject: subject, Want: observe.BodyHash(w.body), Record: recorded,
		Replace: replace, Import: b.anyOf(b.in.Import, wanted), Ignored: b.anyOf(b.in.Ignore, wanted),
		Intended: b.st.Intended(state.Intent{Address: addr, File: f.Path, Name: id}), Commands: b.in.Commands,
	})
	b.decided(&c, d)
	spec.RecordOnly, spec.Wrap = d.RecordOnly, d.Wrap
	if d.Action == NoOp && recorded != nil && !slices.Equal(rec.WantedBy, wanted) {
		c.Action, c.Reason = Update, "recorded as wanted by "+joinAddrs(wanted)
	}
	b.sharedFileConflict(&c, f, replace)
	b.add(c)
	if c.Action != NoOp {
		for _, other := range wanted[1:] {
			b.plan.Changes = append(b.plan.Changes, Change{Address: other, Kind: KindBlock, Action: Read, Path: f.Path, Reason: "the same block " + id + " as " + addr})
		}
	}
	for _, a := range wanted {
		b.desired[a] = true
	}
}

// removeBlock plans the removal of a recorded block no address wants any
// more: removed when it is as chronicle wrote it, else left as a conflict.
// emptied says the file is chronicle's own and holds nothing else once the
// removed blocks go: it goes too.
func (b *builder) removeBlock(f *toolfile.File, parsed *markers.File, rec state.Block, emptied bool) {
	before := observe.BlockIn(f, parsed, rec.ID)
	addr := rec.WantedBy[0]
	c := Change{Address: addr, Kind: KindBlock, Action: Delete, Path: f.Path, Before: &before,
		Block: &BlockSpec{File: f.Path, ID: rec.ID}}
	after := "the text around it stays as it is"
	if emptied {
		after = f.Path + " held nothing else chronicle did not write, so the file goes too"
	}
	subject := blockSubject{b: b, file: f, id: rec.ID, seen: before}
	b.decided(&c, own.Release(own.Case{Address: addr, Subject: subject, Record: &own.Record{Hash: rec.Hash},
		Ignored: b.anyOf(b.in.Ignore, rec.WantedBy), After: after, Commands: b.in.Commands}))
	if before.Kind != observe.Absent {
		b.sharedFileConflict(&c, f, b.in.Replace[addr])
	}
	b.plan.Changes = append(b.plan.Changes, c)
}

// sharedFileConflict turns a change to a shared file into a conflict where
// chronicle cannot write the file as it writes (replaced atomically, mode
// and owner kept): another user's, read-only, or hard-linked.
func (b *builder) sharedFileConflict(c *Change, f *toolfile.File, replace bool) {
	if !c.Action.Changes() || (c.Block != nil && c.Block.RecordOnly) {
		return
	}
	facts := observe.Facts(f)
	if !facts.Exists {
		return
	}
	switch {
	case b.in.EUID > 0 && facts.UID >= 0 && facts.UID != b.in.EUID:
		c.Action, c.Reason = Conflict, fmt.Sprintf("%s belongs to user %d; chronicle, running as user %d, cannot write it and keep its owner (run chronicle as that user)", f.Path, facts.UID, b.in.EUID)
	case facts.Mode&0o200 == 0 && !replace:
		c.Action, c.Reason = Conflict, fmt.Sprintf("%s is read-only (mode %#o): chronicle does not write a file its owner cannot write; %s writes it and keeps the mode", f.Path, uint32(facts.Mode), b.in.Commands.Replace(c.Address))
	case facts.Links > 1:
		c.Action, c.Reason = Conflict, fmt.Sprintf("%s is hard-linked, %d links: replacing it would split the link; make it a single file (or a symlink) first", f.Path, facts.Links)
	}
}

// blockDiff shows a block's body as it is against as it would be written.
func (b *builder) blockDiff(path, id, current, want string) string {
	return b.maskDiff(textdiff.Unified(path+" "+id+" (in the file)", path+" "+id+" (declared)", current, want))
}

// anyOf reports whether set holds one of addrs.
func (b *builder) anyOf(set map[string]bool, addrs []string) bool {
	for _, a := range addrs {
		if set[a] {
			return true
		}
	}
	return false
}

// fileCreated reports whether chronicle created the file of these records.
func fileCreated(recs map[string]state.Block) bool {
	for _, r := range recs {
		if r.Created {
			return true
		}
	}
	return false
}

// leftEmpty reports whether removing the blocks gone from the file leaves
// nothing in it.
func leftEmpty(parsed *markers.File, f *toolfile.File, gone []string) bool {
	if !f.Exists {
		return false
	}
	ops := make([]markers.Op, len(gone))
	for i, id := range gone {
		ops[i] = markers.Op{ID: id}
	}
	out, err := markers.Splice(f.Path, f.Data, ops)
	return err == nil && len(out) == 0
}

func joinAddrs(addrs []string) string {
	s := ""
	for i, a := range addrs {
		if i > 0 {
			s += ", "
		}
		s += a
	}
	return s
}

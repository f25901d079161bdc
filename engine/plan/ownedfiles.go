package plan

import (
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/observe"
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
	spec := &FileSpec{Tool: place.Tool, Kind: in.Kind, Name: in.Name, Path: path, Content: content, Rendered: toolfile.Hash(r.Content), ItemFolder: place.ItemFolder()}
	before := observe.Place(b.in.Reader, path)
	c := Change{Address: addr, Kind: KindFile, Path: path, File: spec, Before: &before}
	rec := b.st.FileAt(path)
	if rec != nil && rec.Address != addr {
		spec.Takeover = rec.Address
	}
	current := ""
	if before.Kind == observe.File {
		current = string(b.view.File(path).Data)
	}
	replace, imported := b.in.Replace[addr], b.in.Import[addr]
	switch {
	case before.Kind == observe.Absent:
		c.Action = Create
		if rec != nil {
			c.Reason = "removed since chronicle wrote it; writing it again"
		}
	case before.Kind == observe.File && rec != nil && before.Hash == rec.Hash:
		switch {
		case rec.Rendered != spec.Rendered:
			c.Action, c.Diff = Update, b.fileDiff(path, current, content)
		case spec.Takeover != "":
			c.Action, c.Reason, spec.RecordOnly = Update, "recorded under "+addr+" (written for "+spec.Takeover+")", true
		}
	case before.Kind == observe.File && rec == nil && current == content:
		switch {
		case b.st.Intended(state.Intent{Address: addr, Path: path, Hash: spec.Rendered}):
			c.Action, c.Reason, spec.RecordOnly = Update, "written by an interrupted apply; recording it", true
		case imported || replace:
			c.Action, c.Reason, spec.RecordOnly = Update, "imported: the file is the declared one; recorded as chronicle's", true
		default:
			c.Action, c.Reason = Conflict, fmt.Sprintf("%s is already there, identical to the declared one, but chronicle did not write it; %s takes it over as it is", path, b.in.Commands.ImportAddr(addr))
		}
	case before.Kind == observe.File && rec == nil && imported:
		c.Action, c.Reason, spec.RecordOnly = Update, "imported as it is: recorded as chronicle's, nothing rewritten (the next change to the declaration rewrites it)", true
	case before.Kind == observe.File && rec != nil:
		c.Diff = b.fileDiff(path, current, content)
		if replace {
			c.Action, c.Reason = Update, "edited since chronicle wrote it; --replace writes the declared version after a backup"
		} else {
			c.Action, c.Reason = Conflict, "drift: edited since chronicle wrote it; to keep the edit, change the configuration to match (the diff shows how) or chronicle state rm "+ShellQuote(addr)+"; to drop it, "+b.in.Commands.Replace(addr)
		}
	default:
		what := describe(before, path)
		if before.Kind == observe.File {
			c.Diff = b.fileDiff(path, current, content)
			what = "a file chronicle did not write is at " + path
		}
		if replace {
			c.Action, c.Reason = Replace, what+"; --replace moves it into a kept backup set, then writes"
		} else {
			c.Action, c.Reason = Conflict, what+"; chronicle never replaces it ("+b.in.Commands.Replace(addr)+" moves it into a kept backup set first)"
		}
	}
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
			File: &FileSpec{Tool: rec.Tool, Kind: rec.Kind, Path: rec.Path, ItemFolder: rec.FolderCreated}}
		switch {
		case before.Kind == observe.Absent:
			c.Reason = "already gone; forgetting it"
		case before.Kind == observe.File && before.Hash == rec.Hash:
			c.Reason = "no longer declared"
		default:
			c.Action, c.Reason = Conflict, "no longer declared, but "+describeChanged(before, rec.Path)+"; not removed (chronicle state rm "+ShellQuote(rec.Address)+" lets go of it)"
		}
		b.plan.Changes = append(b.plan.Changes, c)
	}
}

// describeChanged says what is at a place chronicle's file was.
func describeChanged(o observe.Observation, path string) string {
	if o.Kind == observe.File {
		return "edited since chronicle wrote it"
	}
	return describe(o, path) + " instead of what chronicle wrote"
}

// fileDiff shows a file as it is against as it would be written.
func (b *builder) fileDiff(path, current, want string) string {
	return b.maskDiff(textdiff.Unified(path+" (on disk)", path+" (declared)", ensureNL(current), ensureNL(want)))
}

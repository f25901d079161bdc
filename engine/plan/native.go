package plan

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// A nativeRead is a file a tool reads itself where the file the plan would
// write for it is not found: Claude Code 2.1.277 and later reads a
// project's AGENTS.md where the project has no CLAUDE.md (decision 0150).
type nativeRead struct {
	file    string // absolute: the project's AGENTS.md
	project string
	spec    *provider.Native
	// keepImport says a link asks for the importing file all the same
	// (claude_import = true): for builds that do not read file themselves.
	keepImport bool
}

// nativeReads moves the blocks each file with a native read wants into the
// file the tool reads itself, where nothing switches that reading off: no
// CLAUDE.md is created, and one chronicle created before for its blocks
// alone is emptied and so removed by planSharedFile (with a backup, as
// every removal of a created file). Files nearer the root are decided
// first: a CLAUDE.md kept in a folder switches the reading off for every
// folder below it.
func (b *builder) nativeReads() {
	paths := b.sharedFiles()
	slices.SortStableFunc(paths, func(x, y string) int {
		return strings.Count(x, string(filepath.Separator)) - strings.Count(y, string(filepath.Separator))
	})
	for _, path := range paths {
		sf := b.instr.shared[path]
		if sf.native == nil || sf.native.keepImport || len(sf.order) == 0 || b.switchedOff(sf) {
			continue
		}
		n := sf.native
		target := b.instr.shared[n.file]
		if target == nil {
			target = &sharedFile{path: n.file, tool: sf.tool, blocks: map[string]*blockWant{}, imports: map[string]string{}}
			b.instr.shared[n.file] = target
		}
		first := sf.blocks[sf.order[0]].wanted[0]
		for _, id := range sf.order {
			w := sf.blocks[id]
			for _, addr := range w.wanted {
				b.want(target, id, addr, w.body)
			}
		}
		delete(b.instr.shared, path)
		b.note(first, "Rules for "+sf.tool+" in "+filepath.Base(n.file)+" only",
			"%s and later reads %s where no %s is found in %s or a folder above it (%s): the rules go there only, and no %s is written; claude_import = true on the link keeps a %s importing it, for builds that do not read it.",
			n.spec.Since, n.file, strings.Join(n.spec.Unless, ", "), n.project, n.spec.Where, filepath.Base(path), filepath.Base(path))
	}
}

// switchedOff reports whether a file that switches the native read off is
// in the project's folder or a folder above it: one there now that is not
// chronicle's creation holding only chronicle's blocks (the one this plan
// may remove), or one this plan keeps writing. A file that cannot be read
// counts: the import stays rather than be guessed away.
func (b *builder) switchedOff(sf *sharedFile) bool {
	n := sf.native
	for dir := n.project; ; {
		for _, rel := range n.spec.Unless {
			p := filepath.Join(dir, rel)
			if slices.Contains(n.spec.Except, p) {
				continue
			}
			if other := b.instr.shared[p]; other != nil && other != sf && len(other.order) > 0 {
				return true
			}
			f := b.view.File(p)
			if f.Err != nil || (f.Exists && !b.onlyChronicles(p)) {
				return true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// onlyChronicles reports whether chronicle created the shared file at path
// and it holds nothing but chronicle's recorded blocks.
func (b *builder) onlyChronicles(path string) bool {
	recs := b.st.BlocksIn(path)
	created := false
	var ids []string
	for _, r := range recs {
		created = created || r.Created
		ids = append(ids, r.ID)
	}
	if !created {
		return false
	}
	f, parsed, err := b.sharedParse(path)
	return err == nil && leftEmpty(parsed, f, ids)
}

package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// An instructionPlan collects, while the links are planned, what every
// link wants of rules, commands and agents: the blocks of each shared file
// (decided per file once every link has said what it wants there) and the
// files each address claims.
type instructionPlan struct {
	// shared holds the wanted blocks of each shared file.
	shared map[string]*sharedFile
	// claims maps an owned file's path to the address that writes it,
	// and contents to what it writes there.
	claims   map[string]string
	contents map[string]string
	// elsewhere are the items of tools that read a kind from more than
	// one folder, decided once every other file is claimed.
	elsewhere []elsewhereItem
}

// A sharedFile is what the plan wants in one file shared with the user.
type sharedFile struct {
	path   string
	tool   string // the first tool wanting something there, for messages
	blocks map[string]*blockWant
	order  []string // block ids in the order first wanted
	// imports are the files this file may import instead of copying their
	// blocks (Claude Code's CLAUDE.md and AGENTS.md), with their lines.
	imports map[string]string
	// native, when set, is a file the tool reads itself where this file
	// is not wanted (Claude Code's AGENTS.md): see nativeReads.
	native *nativeRead
}

// A blockWant is one wanted block of a shared file.
type blockWant struct {
	body   string
	wanted []string
}

func newInstructionPlan() *instructionPlan {
	return &instructionPlan{shared: map[string]*sharedFile{}, claims: map[string]string{}, contents: map[string]string{}}
}

// instructions plans what every link gives its tools of rules, commands and
// agents: a file of its own where the tool keeps one per item, a marked
// block in the file it shares with the user otherwise. A tool with no place
// for a kind at the link's scope gets a note, and nothing.
func (b *builder) instructions() {
	b.instr = newInstructionPlan()
	for _, l := range b.cfg.Links {
		if b.elsewhere[l] {
			b.keepInstructions(l, nil) // its project folder is not on this machine
			continue
		}
		tools := b.cfg.LinkTools(l)
		for _, tool := range tools {
			p, ok := b.tools[tool]
			if !ok {
				continue // links reported the unknown tool
			}
			for _, kind := range instruction.Kinds {
				linked := b.cfg.LinkedInstructions(l, kind)
				if len(linked) == 0 {
					continue
				}
				places := instructionPlaces(p, b.in.Env, l.Project, kind)
				if len(places) == 0 {
					if !l.Names(tool) {
						continue // tools = ["*"]: every tool that keeps these
					}
					b.note(linkAddress(l.Name, tool, kind+".*"), fmt.Sprintf("No %ss for %s", kind, tool),
						"%s keeps no %s files%s: link %q gives it none of its %s (docs/providers.md lists where each tool keeps them).", tool, kind, where(l.Project), l.Name, items(len(linked), kind))
					continue
				}
				for _, in := range linked {
					b.instructionItem(l, tool, places, in)
				}
			}
		}
		if l.AllTools() {
			b.keepInstructions(l, tools)
		}
	}
	b.readElsewhere()
	b.nativeReads()
	b.sharedImports()
	files := b.sharedFiles()
	for _, r := range b.st.Blocks {
		files = append(files, r.File) // a file no link wants anything in any more
	}
	slices.Sort(files)
	for _, path := range slices.Compact(files) {
		b.planSharedFile(path)
	}
}

// instructionItem plans one rule, command or agent in one tool, at the
// first of its places; the others are folders the tool also reads items
// from (see readElsewhere).
func (b *builder) instructionItem(l *config.Link, tool string, places []provider.Place, in *config.Instruction) {
	place := places[0]
	addr := linkAddress(l.Name, tool, in.Kind+"."+in.Name)
	r := place.Format.Render(in.Instruction)
	for _, n := range r.Notes {
		b.note(addr, fmt.Sprintf("Not all of %s %s fits %s", in.Kind, in.Name, tool), "%s.", n)
	}
	if r.Refused != "" {
		b.note(addr, fmt.Sprintf("%s cannot hold %s %s", tool, in.Kind, in.Name), "%s; nothing is written for it there (a body without that placeholder is).", r.Refused)
		return
	}
	b.desired[addr] = true
	if place.Shared() {
		sf := b.wantBlock(addr, tool, place, in.Kind+"."+in.Name, string(r.Content))
		if sf != nil && sf.native != nil && l.ClaudeImport {
			sf.native.keepImport = true
		}
		return
	}
	if len(places) > 1 {
		b.instr.elsewhere = append(b.instr.elsewhere, elsewhereItem{addr: addr, places: places, in: in, r: r})
		return
	}
	b.ownedFile(addr, place, in, r)
}

// instructionPlaces returns the places a link writes a kind to for a tool,
// user level or the link's project, in the tool's order: the first is
// where chronicle writes.
func instructionPlaces(p provider.Provider, env provider.Env, project, kind string) []provider.Place {
	env.Projects = nil
	if project != "" {
		env.Projects = []string{project}
	}
	var out []provider.Place
	for _, pl := range p.Instructions(env) {
		if pl.Kind != kind {
			continue
		}
		if (project == "" && pl.Scope == provider.ScopeUser) || (project != "" && pl.Scope == provider.ScopeProject && pl.Project == project) {
			out = append(out, pl)
		}
	}
	return out
}

// wantBlock records that addr wants block id with body in the shared file
// the place's tool reads: the first of its files that exists, else the
// first. Two addresses that want different text in the same block are an
// error: the file has one block of that id. It returns the file's wants.
func (b *builder) wantBlock(addr, tool string, place provider.Place, id, body string) *sharedFile {
	path := place.Files[0]
	for _, f := range place.Files {
		if b.view.File(f).Exists {
			path = f
			break
		}
	}
	sf := b.instr.shared[path]
	if sf == nil {
		sf = &sharedFile{path: path, tool: tool, blocks: map[string]*blockWant{}, imports: map[string]string{}}
		b.instr.shared[path] = sf
	}
	if place.Import != nil {
		sf.imports[place.Import.File] = place.Import.Line
		if place.Import.Native != nil && sf.native == nil {
			sf.native = &nativeRead{file: place.Import.File, project: place.Project, spec: place.Import.Native}
		}
	}
	b.want(sf, id, addr, body)
	return sf
}

// want adds addr to the addresses wanting block id of sf with body.
func (b *builder) want(sf *sharedFile, id, addr, body string) {
	w := sf.blocks[id]
	if w == nil {
		sf.blocks[id] = &blockWant{body: body, wanted: []string{addr}}
		sf.order = append(sf.order, id)
		return
	}
	if w.body != body {
		b.diag("error", addr, "Two texts for one block", "%s and %s both write block %s of %s, with different text (a rule's text is rendered alike for every tool sharing a file, so the rule changed between them?).", w.wanted[0], addr, id, sf.path)
		return
	}
	w.wanted = append(w.wanted, addr)
}

// sharedImports lets a file that can import another (Claude Code's
// CLAUDE.md imports AGENTS.md) hold one marked block with the import line
// instead of a copy of each block the other file carries with the same
// text: the addresses that wanted the copies want the import instead. A
// file that imports the other already, in the user's own text, needs no
// block at all.
func (b *builder) sharedImports() {
	for _, path := range b.sharedFiles() {
		sf := b.instr.shared[path]
		for _, other := range sortedKeys(sf.imports) {
			line := sf.imports[other]
			target := b.instr.shared[other]
			if target == nil {
				continue
			}
			var moved []string
			for _, id := range slices.Clone(sf.order) {
				w := sf.blocks[id]
				if tw := target.blocks[id]; tw == nil || tw.body != w.body {
					continue
				}
				moved = append(moved, w.wanted...)
				delete(sf.blocks, id)
				sf.order = slices.DeleteFunc(sf.order, func(x string) bool { return x == id })
			}
			if len(moved) == 0 {
				continue
			}
			if _, parsed, err := b.sharedParse(path); err == nil && parsed != nil && parsed.HasLine(line) {
				continue // the user's own text imports it
			}
			id := importID(other)
			if w := sf.blocks[id]; w != nil {
				w.wanted = append(w.wanted, moved...)
				continue
			}
			sf.blocks[id] = &blockWant{body: line + "\n", wanted: moved}
			sf.order = append([]string{id}, sf.order...)
		}
	}
}

// importID names the block that imports a file: import.agents-md.
func importID(file string) string {
	base := file[strings.LastIndexAny(file, `/\`)+1:]
	return "import." + strings.ToLower(strings.ReplaceAll(base, ".", "-"))
}

// sharedFiles returns the shared files the plan wants blocks in, sorted.
func (b *builder) sharedFiles() []string { return sortedKeys(b.instr.shared) }

// items counts n items of a kind: "1 rule", "3 rules".
func items(n int, kind string) string {
	if n == 1 {
		return "1 " + kind
	}
	return fmt.Sprintf("%d %ss", n, kind)
}

// keepInstructions marks as kept the state's files and blocks of link l
// for the tools this machine does not plan (planned lists those it does;
// nil: none, its project folder being missing here), while the link still
// names the tool (or has "*") and still takes the item: they are not
// removed for that reason.
func (b *builder) keepInstructions(l *config.Link, planned []string) {
	prefix := "link." + l.Name + "["
	consider := func(addr string) {
		if !strings.HasPrefix(addr, prefix) {
			return
		}
		rest := strings.TrimPrefix(addr, prefix)
		q := strings.Index(rest, "\"]")
		if q < 0 {
			return
		}
		tool, item := strings.Trim(rest[:q], `"`), strings.TrimPrefix(rest[q+2:], ".")
		if slices.Contains(planned, tool) || !(l.Names(tool) || l.AllTools()) {
			return
		}
		kind, name, _ := strings.Cut(item, ".")
		for _, in := range b.cfg.LinkedInstructions(l, kind) {
			if in.Name == name {
				b.kept[addr] = true
				return
			}
		}
	}
	for _, f := range b.st.Files {
		consider(f.Address)
	}
	for _, blk := range b.st.Blocks {
		for _, a := range blk.WantedBy {
			consider(a)
		}
	}
}

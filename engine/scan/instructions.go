package scan

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/markers"
	"github.com/chronicle-dev/chronicle/engine/own"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// StatusHandWritten is the status of a root instruction file's text outside
// chronicle's blocks: the user's own, never changed by chronicle (adopt
// --rules takes it over as one rule). StatusBlocks is that of a root file
// holding nothing but chronicle's blocks.
const (
	StatusHandWritten = "hand-written"
	StatusBlocks      = "blocks"
)

// An Instruction is a rule, command or agent file a tool has (a file of
// its own in the tool's folder), or a root instruction file the tool shares
// with the user (Root: AGENTS.md, CLAUDE.md, …).
type Instruction struct {
	Tool    string
	Kind    string // rule, command or agent
	Scope   string // user or project
	Project string
	Path    string
	// Name is a file's item name (its file name without the extension); a
	// root file's is empty.
	Name string
	Root bool
	// SharedWith names the other tools that read the same file (a root
	// file, or an item file in a folder two tools read: VS Code's and
	// Copilot CLI's ~/.copilot/agents).
	SharedWith []string
	// Blocks are the ids of chronicle's blocks in a root file.
	Blocks []string
	// Found is the file read back: an item file's instruction, or, for a
	// root file, a rule holding the user's text outside the blocks.
	Found  instruction.Instruction
	Status string
	Reason string
	// Hash is the hash of the file's content.
	Hash string
}

// instructions scans the places of p's rules, commands and agents. Files
// several tools read (root files, items in a folder two tools read) are
// listed once, under the first tool; the others are named in SharedWith.
func (opts *Options) instructions(p provider.Provider, r *Result, seen map[string]int) {
	for _, pl := range p.Instructions(opts.Env) {
		if pl.Shared() {
			opts.rootFile(pl, r, seen)
			continue
		}
		opts.folder(pl, r, seen)
	}
}

// rootFile lists the shared file a place reads, when there is one.
func (opts *Options) rootFile(pl provider.Place, r *Result, roots map[string]int) {
	var f *toolfile.File
	for _, path := range pl.Files {
		c := opts.View.File(path)
		if c.Err != nil && isDir(opts.View.Reader(), path) {
			continue // a folder of that name (Cline's .clinerules/) is no root file the tool reads
		}
		if c.Exists || c.Err != nil {
			f = c
			break
		}
	}
	if f == nil {
		return
	}
	if i, ok := roots[f.Path]; ok {
		r.Instructions[i].SharedWith = append(r.Instructions[i].SharedWith, pl.Tool)
		return
	}
	if f.Err != nil {
		r.Errors = append(r.Errors, Error{Tool: pl.Tool, File: f.Path, Err: f.Err})
		return
	}
	parsed, err := markers.Parse(f.Path, f.Data)
	if err != nil {
		r.Errors = append(r.Errors, Error{Tool: pl.Tool, File: f.Path, Err: err})
		return
	}
	in := Instruction{Tool: pl.Tool, Kind: pl.Kind, Scope: pl.Scope, Project: pl.Project, Path: f.Path, Root: true, Hash: f.Hash()}
	for _, b := range parsed.Blocks() {
		in.Blocks = append(in.Blocks, b.ID)
	}
	in.Found, _ = pl.Format.Read("", parsed.Outside())
	in.Status = StatusBlocks
	if in.Found.Body != "" {
		in.Status, in.Reason = StatusHandWritten, "your own text; chronicle never changes it (adopt --rules takes it over as one rule)"
	}
	roots[f.Path] = len(r.Instructions)
	r.Instructions = append(r.Instructions, in)
}

// isDir reports whether path is a folder (through a symlink).
func isDir(r fsys.Reader, path string) bool {
	info, err := r.Stat(path)
	return err == nil && info.IsDir()
}

// folder lists the files of a folder place, each classified.
func (opts *Options) folder(pl provider.Place, r *Result, seen map[string]int) {
	entries, err := opts.View.Reader().ReadDir(pl.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		r.Errors = append(r.Errors, Error{Tool: pl.Tool, File: pl.Dir, Err: err})
		return
	}
	add := func(in Instruction) {
		seen[in.Path] = len(r.Instructions)
		r.Instructions = append(r.Instructions, in)
	}
	for _, e := range entries {
		name, ok := itemName(pl, e)
		if !ok {
			continue
		}
		path := pl.Path(name)
		if i, ok := seen[path]; ok {
			r.Instructions[i].SharedWith = append(r.Instructions[i].SharedWith, pl.Tool)
			continue
		}
		f := opts.View.File(path)
		if pl.ItemFolder() && !f.Exists && f.Err == nil {
			continue // a folder without the item's file is not an item
		}
		in := Instruction{Tool: pl.Tool, Kind: pl.Kind, Scope: pl.Scope, Project: pl.Project, Path: path, Name: name, Hash: f.Hash()}
		if f.Err != nil || !f.Exists {
			in.Status, in.Reason = StatusInvalid, "cannot be read"
			if f.Err != nil {
				in.Reason += ": " + f.Err.Error()
			}
			add(in)
			continue
		}
		found, err := pl.Format.Read(name, f.Data)
		if err != nil {
			in.Status, in.Reason = StatusInvalid, "cannot be read: "+err.Error()
			add(in)
			continue
		}
		in.Found = found
		in.Status, in.Reason = opts.classifyInstruction(pl, in, f.Data)
		add(in)
	}
}

// itemName returns the name of the item a folder entry holds: a file
// named NAME followed by the place's extension, or, where each item has a
// folder of its own, a folder NAME (its file is checked by the caller).
// Hidden entries are no items.
func itemName(pl provider.Place, e fs.DirEntry) (string, bool) {
	if strings.HasPrefix(e.Name(), ".") {
		return "", false
	}
	if pl.ItemFolder() {
		return e.Name(), e.IsDir() || e.Type()&fs.ModeSymlink != 0
	}
	name, ok := strings.CutSuffix(e.Name(), pl.Ext)
	return name, ok && name != "" && (e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0)
}

// classifyInstruction classifies a file of a folder place against the
// state and the configuration, as services are: owned or drift when
// chronicle wrote it, else new, unchanged or conflict.
func (opts *Options) classifyInstruction(pl provider.Place, in Instruction, data []byte) (string, string) {
	if opts.State != nil {
		if rec := opts.State.FileAt(in.Path); rec != nil {
			if rec.Hash == in.Hash {
				return StatusOwned, ""
			}
			return StatusDrift, own.EditedSince + " (" + rec.Address + ")"
		}
	}
	if opts.Config == nil {
		return StatusNew, ""
	}
	decl := opts.Config.Instruction(in.Kind, in.Name)
	if decl == nil {
		return StatusNew, ""
	}
	if r := pl.Format.Render(decl.Instruction); r.Refused == "" && string(r.Content) == string(data) {
		return StatusUnchanged, ""
	}
	return StatusConflict, "differs from the declared " + in.Kind + " " + in.Name
}

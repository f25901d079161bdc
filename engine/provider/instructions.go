package provider

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/instruction"
)

// A Place is where a tool reads instructions of one kind (rules, commands
// or agents) at one scope: a file it shares with the user and with other
// tools (Files: chronicle owns a marked block per item there), or a folder
// of one file per item (Dir: chronicle owns the files it wrote whole), or
// of one folder per item holding one file (Dir and File).
// Places are data: the engine decides what to write, the Format how.
type Place struct {
	Tool    string
	Kind    string // instruction.Rule, instruction.Command or instruction.Agent
	Scope   string // ScopeUser or ScopeProject
	Project string // absolute project folder for project scope
	// Files are, for a shared file, the files the tool reads these from in
	// its own order of precedence: it reads the first that exists (Zed's
	// .rules, …, AGENTS.md), and a file created is Files[0].
	Files []string
	// Dir is, for a folder of one file per item, that folder; an item's
	// file is its name followed by Ext.
	Dir string
	Ext string
	// File, when set, makes Dir a folder of one folder per item: an item's
	// file is Dir/NAME/File (Devin's agents/NAME/AGENT.md), and Ext is
	// unused. chronicle creates the item's folder with the file and
	// removes the folder it created with it, when nothing else is left.
	File string
	// Import is, for a shared file, another file the tool can import
	// instead of holding a copy of the blocks that file carries (Claude
	// Code's CLAUDE.md imports AGENTS.md with a line "@AGENTS.md").
	Import *Import
	// Format renders an item as this place holds it, and reads it back.
	Format Format
	// Source is the vendor's page documenting the place (cited in
	// docs/providers.md).
	Source string
}

// Shared reports whether the place is a file shared with the user, where
// chronicle owns only its marked blocks.
func (p Place) Shared() bool { return len(p.Files) > 0 }

// Path returns the file of the item name at a folder place.
func (p Place) Path(name string) string {
	if p.File != "" {
		return filepath.Join(p.Dir, name, p.File)
	}
	return filepath.Join(p.Dir, name+p.Ext)
}

// ItemFolder reports whether each item of a folder place has a folder of
// its own (File is set).
func (p Place) ItemFolder() bool { return p.File != "" }

// An Import is a file a tool can import, and the line that does.
type Import struct {
	File string // absolute
	Line string // e.g. "@AGENTS.md"
	// Native, when set, says the tool reads File itself, with no import
	// and no file of its own, where none of the files that switch this off
	// is found: Claude Code 2.1.277 and later reads AGENTS.md in a project
	// with no CLAUDE.md.
	Native *Native
}

// A Native says when a tool reads an importable file itself: where no file
// named in Unless exists in the project's folder or in any folder above
// it. The plan then writes the tool's blocks into that file only.
type Native struct {
	// Unless are paths relative to a folder: CLAUDE.md, .claude/CLAUDE.md,
	// CLAUDE.local.md.
	Unless []string
	// Except are absolute files that never count, though a walk up from a
	// project meets them: the user's memory ~/.claude/CLAUDE.md is the
	// .claude/CLAUDE.md of the home folder, but not a project's.
	Except []string
	// Since names the first version that reads the file ("Claude Code
	// 2.1.277"), and Where the builds that do not yet, for the plan's note.
	Since, Where string
}

// A Format renders instructions in one tool's format, and reads them back.
// It never touches the filesystem.
type Format interface {
	// Render returns in as the place holds it: a whole file for a folder
	// place, a block's body for a shared file.
	Render(in instruction.Instruction) Rendered
	// Read reads the content of one of the place's files (a block's body,
	// for a shared file) back into an instruction named name.
	Read(name string, src []byte) (instruction.Instruction, error)
}

// A Rendered is an instruction in one tool's format.
type Rendered struct {
	Content []byte
	// Notes say what the tool cannot express and was left out (an agent's
	// tools where the tool has no allowlist).
	Notes []string
	// Refused, when set, says why the tool cannot hold the instruction at
	// all (a command placeholder it cannot express): nothing is written,
	// and the plan says why.
	Refused string
}

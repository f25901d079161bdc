package state

import "slices"

// A Block is a marked block chronicle keeps in a file it shares with the
// user and other tools (AGENTS.md, CLAUDE.md, …). The file decides the
// owner: one block per file and id, whatever number of links and tools
// want it, recorded with the addresses that do; the block goes when the
// last of them stops wanting it.
type Block struct {
	File string
	ID   string // rule.go-style, import.agents-md
	// Hash is the hash of the body as written (LF line ends).
	Hash string
	// WantedBy are the addresses that want the block, sorted.
	WantedBy []string
	// Created says chronicle created the file to hold its blocks: when
	// the last block goes and nothing else is left, the file goes too.
	Created bool
}

// A File is a file chronicle owns whole: a rule, command or agent file in a
// tool's folder (.claude/commands/review.md, .cursor/rules/go-style.mdc).
type File struct {
	Address string
	Tool    string
	Kind    string // rule, command or agent
	Path    string
	// Hash is the hash of the file as written (or, when it was taken over
	// as it was, as found).
	Hash string
	// Rendered is the hash of the declaration as the tool's format
	// rendered it then: a later plan rewrites the file only when the
	// declaration renders differently.
	Rendered string
	// Folder is the topmost folder chronicle created to hold the file
	// (.claude/commands/ for .claude/commands/review.md; Devin's
	// agents/NAME/ for agents/NAME/AGENT.md), "" when every folder was
	// there: when the last file in it goes, each folder from the file's up
	// to this one goes too, if nothing else is left in it.
	Folder string
}

// BlockAt returns the record of block id in file, or nil.
func (s *State) BlockAt(file, id string) *Block {
	for i := range s.Blocks {
		if s.Blocks[i].File == file && s.Blocks[i].ID == id {
			return &s.Blocks[i]
		}
	}
	return nil
}

// BlocksIn returns the records of the blocks in file.
func (s *State) BlocksIn(file string) []Block {
	var out []Block
	for _, b := range s.Blocks {
		if b.File == file {
			out = append(out, b)
		}
	}
	return out
}

// SetBlock records a block, in place of an older record of the same file
// and id.
func (s *State) SetBlock(b Block) {
	slices.Sort(b.WantedBy)
	if rec := s.BlockAt(b.File, b.ID); rec != nil {
		*rec = b
		return
	}
	s.Blocks = append(s.Blocks, b)
}

// ForgetBlock removes the record of block id in file.
func (s *State) ForgetBlock(file, id string) {
	s.Blocks = slices.DeleteFunc(s.Blocks, func(b Block) bool { return b.File == file && b.ID == id })
}

// FileAt returns the record of the file chronicle owns at path, or nil.
func (s *State) FileAt(path string) *File {
	for i := range s.Files {
		if s.Files[i].Path == path {
			return &s.Files[i]
		}
	}
	return nil
}

// SetFile records an owned file, in place of older records of the same
// address or path.
func (s *State) SetFile(f File) {
	s.Files = append(slices.DeleteFunc(s.Files, func(x File) bool { return x.Address == f.Address || x.Path == f.Path }), f)
}

// ForgetFile removes the records of the file at address.
func (s *State) ForgetFile(address string) {
	s.Files = slices.DeleteFunc(s.Files, func(x File) bool { return x.Address == address })
}

// forgetInstruction lets go of what addr wants: its whole file, and its
// share of each block (a block no address wants any more is forgotten; the
// text stays in the file, the user's from now on).
func (s *State) forgetInstruction(addr string) {
	s.ForgetFile(addr)
	s.Blocks = slices.DeleteFunc(s.Blocks, func(b Block) bool {
		return slices.Contains(b.WantedBy, addr) && len(b.WantedBy) == 1
	})
	for i := range s.Blocks {
		s.Blocks[i].WantedBy = slices.DeleteFunc(slices.Clone(s.Blocks[i].WantedBy), func(a string) bool { return a == addr })
	}
}

package state

import (
	"fmt"
	"slices"
	"sort"
)

// The kinds of record in the state file.
const (
	recordEntry = "entry" // an entry in a tool's MCP config
	recordBlock = "block" // a marked block in a file shared with the user
	recordFile  = "file"  // a rule, command or agent file owned whole
	recordLink  = "link"  // a skill's link or tracked copy in a tool's folder
	recordRule  = "rule"  // a permission rule in a list shared with the user
)

// recordV4 is the one shape of what chronicle wrote into other programs'
// files, whatever its kind: where it is (Path, and inside the file KeyPath
// and Name), who wants it (Address, or WantedBy for a block several
// addresses share), the hash of what chronicle owns of it as written and
// of the declaration rendered then, and whether chronicle created what
// holds it.
type recordV4 struct {
	Kind     string   `json:"kind"`
	Address  string   `json:"address,omitempty"`
	WantedBy []string `json:"wanted_by,omitempty"` // block
	Tool     string   `json:"tool,omitempty"`
	Scope    string   `json:"scope,omitempty"`   // entry
	Project  string   `json:"project,omitempty"` // entry
	// Path is the file holding an entry or block, the file owned whole, or
	// the place of a link or copy.
	Path    string   `json:"path"`
	KeyPath []string `json:"key_path,omitempty"` // entry
	// Name is an entry's name in the tool or a block's id.
	Name string `json:"name,omitempty"` // or a rule's text
	// Item is a whole file's kind of item: rule, command or agent.
	Item     string   `json:"item,omitempty"`
	Hash     string   `json:"hash,omitempty"`
	Rendered string   `json:"rendered,omitempty"`
	Extra    []string `json:"extra,omitempty"`  // entry
	Target   string   `json:"target,omitempty"` // link
	Mode     string   `json:"mode,omitempty"`   // link
	// Created says chronicle created what holds the record: the tool file
	// of an entry or block, a folder of a whole file (Folder says which).
	Created bool   `json:"created,omitempty"`
	Folder  string `json:"folder,omitempty"` // file
	// WholeHash says an entry's hash covers the whole entry (upgraded from
	// format 3, not rewritten since).
	WholeHash bool `json:"whole_hash,omitempty"`
}

// records converts the state's records to the file's one list, sorted.
func records(s *State) []recordV4 {
	out := make([]recordV4, 0, len(s.Entries)+len(s.Links)+len(s.Blocks)+len(s.Files)+len(s.Rules))
	for _, e := range s.Entries {
		out = append(out, entryRecord(e))
	}
	for _, b := range s.Blocks {
		out = append(out, blockRecord(b))
	}
	for _, f := range s.Files {
		out = append(out, fileRecord(f))
	}
	for _, l := range s.Links {
		out = append(out, linkRecord(l))
	}
	for _, r := range s.Rules {
		out = append(out, ruleRecord(r))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].key() < out[j].key() })
	return out
}

func (r recordV4) key() string {
	addr := r.Address
	if addr == "" && len(r.WantedBy) > 0 {
		addr = r.WantedBy[0]
	}
	return r.Kind + "\x00" + addr + "\x00" + r.Path + "\x00" + r.Name
}

func entryRecord(e Entry) recordV4 {
	return recordV4{Kind: recordEntry, Address: e.Address, Tool: e.Tool, Scope: e.Scope, Project: e.Project, Path: e.File,
		KeyPath: e.KeyPath, Name: e.Name, Hash: e.Hash, Rendered: e.Rendered, Extra: e.Extra, Created: e.Created, WholeHash: e.WholeHash}
}

func blockRecord(b Block) recordV4 {
	return recordV4{Kind: recordBlock, WantedBy: b.WantedBy, Path: b.File, Name: b.ID, Hash: b.Hash, Created: b.Created}
}

func fileRecord(f File) recordV4 {
	return recordV4{Kind: recordFile, Address: f.Address, Tool: f.Tool, Item: f.Kind, Path: f.Path, Hash: f.Hash, Rendered: f.Rendered, Created: f.Folder != "", Folder: f.Folder}
}

func linkRecord(l Link) recordV4 {
	return recordV4{Kind: recordLink, Address: l.Address, Tool: l.Tool, Path: l.Path, Target: l.Target, Mode: l.Mode, Hash: l.Hash}
}

func ruleRecord(r Rule) recordV4 {
	return recordV4{Kind: recordRule, Address: r.Address, Tool: r.Tool, Scope: r.Scope, Project: r.Project, Path: r.File,
		KeyPath: r.KeyPath, Name: r.Rule, Hash: r.Hash}
}

// into adds the record to the in-memory state.
func (r recordV4) into(s *State) error {
	switch r.Kind {
	case recordEntry:
		s.Entries = append(s.Entries, Entry{Address: r.Address, Tool: r.Tool, Scope: r.Scope, Project: r.Project, File: r.Path,
			KeyPath: slices.Clone(r.KeyPath), Name: r.Name, Hash: r.Hash, Rendered: r.Rendered, Extra: slices.Clone(r.Extra),
			Created: r.Created, WholeHash: r.WholeHash})
	case recordBlock:
		if len(r.WantedBy) == 0 {
			return fmt.Errorf("block %s in %s is wanted by no address", r.Name, r.Path)
		}
		s.Blocks = append(s.Blocks, Block{File: r.Path, ID: r.Name, Hash: r.Hash, WantedBy: slices.Clone(r.WantedBy), Created: r.Created})
	case recordFile:
		s.Files = append(s.Files, File{Address: r.Address, Tool: r.Tool, Kind: r.Item, Path: r.Path, Hash: r.Hash, Rendered: r.Rendered, Folder: r.Folder})
	case recordLink:
		s.Links = append(s.Links, Link{Address: r.Address, Tool: r.Tool, Path: r.Path, Target: r.Target, Mode: r.Mode, Hash: r.Hash})
	case recordRule:
		s.Rules = append(s.Rules, Rule{Address: r.Address, Tool: r.Tool, Scope: r.Scope, Project: r.Project, File: r.Path,
			KeyPath: slices.Clone(r.KeyPath), Rule: r.Name, Hash: r.Hash})
	default:
		return fmt.Errorf("unknown kind %q", r.Kind)
	}
	return nil
}

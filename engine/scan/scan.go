package scan

import (
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/catalog"
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// Statuses of a service entry (SPEC §5).
const (
	StatusOwned     = "owned"     // written by chronicle, unchanged since
	StatusDrift     = "drift"     // written by chronicle, changed since
	StatusNew       = "new"       // a name the configuration does not declare
	StatusUnchanged = "unchanged" // declared, same definition
	StatusUpdated   = "updated"   // declared, differs, and the block's origin is this tool and scope
	StatusConflict  = "conflict"  // declared, differs, other or no origin
	StatusInvalid   = "invalid"   // a hostile or unusable name: reported, never used
)

// A Service is one entry found in a tool's MCP configuration.
type Service struct {
	Location provider.Location
	Entry    provider.Entry
	Status   string
	Reason   string
	// Sees is, for the hub's own entry, what the tool sees through it
	// (from the state and the catalogue cache); nil for other entries.
	Sees *exposure.Seen
}

// An Error is a tool file that could not be read.
type Error struct {
	Tool string
	File string
	Err  error
}

// A Result is everything a scan found.
type Result struct {
	Services []Service
	Skills   []skills.Found
	// Instructions are the rules, commands and agents the tools have
	// (instructions.go).
	Instructions []Instruction
	Errors       []Error
	// Moves are the servers a tool has whose vendor moved its users to
	// another tool that lacks them (Options.Successions).
	Moves []Move
	// Files are the tool files found that carry a note (Location.Note):
	// the layout they were read in, or another tool that reads them.
	Files []File
}

// A File is a tool file that exists and that its provider says something
// about besides its entries.
type File struct {
	Tool, Scope, Project, Path string
	Note                       string
	// ReadOnly says chronicle reads the file and never writes it.
	ReadOnly bool
}

// Options say what to scan and what to compare with.
type Options struct {
	Env   provider.Env
	Tools []provider.Provider
	// Only limits the scan to these tool names; empty means every tool.
	Only []string
	// Config is the declaration to classify against; nil means none, so every
	// entry is new and every valid skill importable.
	Config *config.Config
	Store  skills.Store
	// State tells which entries chronicle wrote; nil when there is none.
	State *state.State
	// Catalog is the catalogue cache the HTTP hub wrote, nil when there
	// is none: what the hub's entries show (Service.Sees).
	Catalog *catalog.File
	// View reads the tools' files; nil means a View of its own over the
	// real filesystem. A plan passes its View, so that the scan and the
	// plan describe the same bytes.
	View *toolfile.View
	// Hashes reads and hashes skills folders when classifying them
	// (engine/hashcache's Cache.Hasher); nil means a Hasher without a
	// cache over the View's reader.
	Hashes *skills.Hasher
	// ManagedUnhashed leaves unexamined what chronicle manages: the hash
	// of skills linked from the store stays empty, and an entry the state
	// records is StatusOwned without its projection rendered to tell
	// drift (a plan, which lists neither and plans each itself).
	ManagedUnhashed bool
	// Glance lists the skills folders whose name no declared skill has
	// without reading them (skills.StatusUnread): a plan that shows the
	// first few of what it does not manage and counts the rest reads
	// those few (Reread), not thousands.
	Glance bool
	// Successions are the vendors' moves of users from one tool to
	// another to report (Result.Moves); nil reports none.
	Successions []provider.Succession

	records  *state.Index // State's, made by Run
	declared Declarations // Config's, made by Run
}

// Run scans every selected tool.
func Run(opts Options) Result {
	if opts.View == nil {
		opts.View = toolfile.NewView(fsys.ReadOnly(fsys.OS{}))
	}
	if opts.State != nil {
		opts.records = opts.State.Index()
	}
	opts.declared = NewDeclarations(opts.Config)
	hashes := opts.Hashes
	if hashes == nil {
		hashes = skills.NewHasher(opts.View.Reader(), nil)
	}
	depth := skills.Depth{ManagedUnhashed: opts.ManagedUnhashed}
	if opts.Glance {
		depth.Read = declaredSkills(opts.Config)
	}
	var r Result
	sharedSeen := map[string]bool{}
	roots := map[string]int{}
	skillDirs, singleFiles := skillFolders(opts)
	for i, p := range opts.Tools {
		if !selected(p.Name(), opts.Only) {
			continue
		}
		for _, loc := range p.Locations(opts.Env) {
			entries, err := opts.View.Entries(p, loc)
			if errors.Is(err, provider.ErrNotConfigured) {
				continue
			}
			r.noteFile(loc, len(entries))
			if err != nil {
				// Locations in one file (Claude Code's user and local
				// scopes) share its error: it is reported once.
				if !slices.ContainsFunc(r.Errors, func(e Error) bool { return e.Tool == p.Name() && e.File == loc.File }) {
					r.Errors = append(r.Errors, Error{Tool: p.Name(), File: loc.File, Err: err})
				}
				continue
			}
			for _, e := range entries {
				s := Service{Location: loc, Entry: e}
				s.Status, s.Reason = classify(p, loc, e, opts)
				s.Sees = hubSeen(loc, e, opts)
				r.Services = append(r.Services, s)
			}
		}
		for _, d := range skillDirs[i] {
			// Tools that share a folder (codex and agents) list it once.
			if sharedSeen[d.Dir] {
				continue
			}
			sharedSeen[d.Dir] = true
			d.Files = singleFiles[d.Dir]
			found, err := skills.ScanDirTo(hashes, d, opts.Store, depth)
			if err != nil {
				r.Errors = append(r.Errors, Error{Tool: p.Name(), File: d.Dir, Err: err})
				continue
			}
			r.Skills = append(r.Skills, untracked(found, opts.records)...)
		}
		opts.instructions(p, &r, roots)
	}
	sort.SliceStable(r.Services, func(i, j int) bool {
		a, b := r.Services[i], r.Services[j]
		if a.Location.Tool != b.Location.Tool {
			return a.Location.Tool < b.Location.Tool
		}
		if a.Location.File != b.Location.File {
			return a.Location.File < b.Location.File
		}
		if a.Location.ReadOnly != b.Location.ReadOnly { // a file's entries chronicle writes first
			return b.Location.ReadOnly
		}
		return a.Entry.Name < b.Entry.Name
	})
	r.Moves = moves(r, opts)
	return r
}

// skillFolders returns each tool's skills folders, and the folders in
// which a tool takes a NAME.md file for a skill (SkillDir.Files): a folder
// several tools share is scanned once, under the first tool that lists
// it, and a single-file skill there is one whichever tool that is.
func skillFolders(opts Options) ([][]provider.SkillDir, map[string]bool) {
	dirs := make([][]provider.SkillDir, len(opts.Tools))
	files := map[string]bool{}
	for i, p := range opts.Tools {
		dirs[i] = p.SkillDirs(opts.Env)
		for _, d := range dirs[i] {
			if d.Files {
				files[d.Dir] = true
			}
		}
	}
	return dirs, files
}

// noteFile lists loc's file among the noted files, when its provider says
// something of it: a file chronicle writes whenever it exists, a
// read-only one when it holds entries (which its note explains) or is a
// candidate (Location.Candidate).
func (r *Result) noteFile(loc provider.Location, entries int) {
	if loc.Note == "" || (loc.ReadOnly && entries == 0 && !loc.Candidate) {
		return
	}
	f := File{Tool: loc.Tool, Scope: loc.Scope, Project: loc.Project, Path: loc.File, Note: loc.Note, ReadOnly: loc.ReadOnly}
	if !slices.Contains(r.Files, f) {
		r.Files = append(r.Files, f)
	}
}

// declaredSkills reports whether cfg declares a skill of a name.
func declaredSkills(cfg *config.Config) func(name string) bool {
	names := map[string]bool{}
	if cfg != nil {
		for _, s := range cfg.Skills {
			names[s.Name] = true
		}
	}
	return func(name string) bool { return names[name] }
}

// Reread reads a skill folder that a scan with Glance listed unread, and
// classifies it as a scan without Glance would have (records: the state's,
// nil for none).
func Reread(h *skills.Hasher, f skills.Found, store skills.Store, records *state.Index) skills.Found {
	skills.Classify(h, &f, store)
	return untracked([]skills.Found{f}, records)[0]
}

func selected(name string, only []string) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if o == name {
			return true
		}
	}
	return false
}

// SafeName reports whether a tool's entry name can be shown and adopted:
// names with path separators, NUL or over 256 bytes are reported and skipped.
func SafeName(name string) bool {
	return name != "" && len(name) <= 256 && !strings.ContainsAny(name, "/\\\x00") && name != "." && name != ".."
}

// untracked turns a copy identical to a central skill that no link of the
// state records (a folder of the user's, not a copy chronicle made) from
// managed into importable: managed is a link into the store or a tracked
// copy (SPEC §5).
func untracked(found []skills.Found, records *state.Index) []skills.Found {
	for i, f := range found {
		if f.Status != skills.StatusManaged || f.Link != "" {
			continue
		}
		if records != nil {
			if l := records.LinkAt(f.Path); l != nil && l.Mode == state.ModeCopy {
				continue
			}
		}
		found[i].Status = skills.StatusImportable
		found[i].Reason = "identical to the central skill " + f.Name + ", a folder chronicle did not make"
	}
	return found
}

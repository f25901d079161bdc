package provider

import (
	"errors"
	"fmt"
	"strconv"
)

// A Provider knows one tool: where its MCP configuration files and skills
// folders are, how to read its entries, and how to edit them in its own
// format. It never touches the filesystem itself: the engine reads a file's
// bytes once (through its filesystem seam), has the provider parse them, and
// writes back the bytes an Edit returns, in one transaction per file.
type Provider interface {
	// Name is the tool's name as written in a link: "claude", "codex", …
	Name() string
	// Locations lists the MCP config files this tool may have on this machine:
	// user level, and per project in env.Projects (and, for Claude, the
	// per-project "local" scope inside ~/.claude.json). Files that do not exist
	// are listed too.
	Locations(env Env) []Location
	// SkillDirs lists the tool's skills folders (user level and per project).
	SkillDirs(env Env) []SkillDir
	// Parse parses src, the content of file (one of the files Locations
	// lists). A nil src stands for a file that does not exist yet: an empty
	// document that edits can create. A file that does not parse is a
	// *ParseError: it is never treated as empty.
	Parse(file string, src []byte) (Document, error)
	// Render returns the entry as the tool would store it (JSON text for JSON
	// tools, a TOML table for codex), for plan diffs and hashing, or an error
	// when the tool cannot express part of it, such as a secret where the tool
	// has no reference syntax.
	Render(e Entry) ([]byte, error)
	// OwnedKeys returns the keys of an entry the provider models, each
	// with the attribute of a service or target block that sets it
	// ("timeout" → "timeout", "includeTools" → "enabled_tools"), or "" for
	// a key it only reads to understand the entry (Zed's "source"). Every
	// other key of an entry is read into Entry.Extra, and only those can be
	// written through it.
	OwnedKeys() map[string]string
	// Instructions lists where the tool reads rules, commands and agents
	// (instructions.go): at user level and for each project in
	// env.Projects; none for a tool that has none. It reads nothing.
	Instructions(env Env) []Place
}

// A Document is one parsed tool file. It is immutable: Edit returns new
// bytes and leaves the Document as it was.
type Document interface {
	// Entries returns the entries at loc in file order. files gives the
	// other files the tool keeps settings in (which servers are enabled).
	Entries(loc Location, files Files) ([]Entry, error)
	// Edit returns the file's content with every edit made, in the tool's
	// own format and secret reference syntax, changing no other byte. The
	// result is parsed again and compared with the intended change: an
	// error, and no bytes, when it is not exactly that. An edit the tool
	// cannot carry out (a secret it cannot reference, an entry written in
	// a form chronicle does not rewrite, a name held twice) is an error
	// naming the entry.
	Edit(edits []Edit) ([]byte, error)
}

// An Edit sets or removes one named entry at a location.
type Edit struct {
	Location Location
	Name     string
	// Entry is the entry to write under Name; nil removes it. Setting an
	// entry keeps the fields of the stored one that chronicle does not own.
	Entry *Entry
	// Drop lists keys of the stored entry that chronicle wrote through
	// Extra before and that Entry.Extra no longer has: setting the entry
	// removes them. Other keys chronicle does not model stay.
	Drop []string `json:",omitempty"`
}

// An OwnedKeyError says an entry's Extra names a key the provider models:
// that key is written from the attribute it maps to, never as given.
type OwnedKeyError struct {
	Tool, Key string
	// Attribute sets the key ("" when the provider only reads it).
	Attribute string
}

func (e *OwnedKeyError) Error() string {
	if e.Attribute == "" {
		return fmt.Sprintf("extra key %q is read by chronicle for %s and cannot be written through extra", e.Key, e.Tool)
	}
	if TargetAttributes[e.Attribute] {
		return fmt.Sprintf("extra key %q is owned by chronicle for %s: use %s in target %q instead", e.Key, e.Tool, e.Attribute, e.Tool)
	}
	return fmt.Sprintf("extra key %q is owned by chronicle for %s: it is written from the service's %s", e.Key, e.Tool, e.Attribute)
}

// TargetAttributes are the attributes a target block may set for one
// tool's entry, besides extra.
var TargetAttributes = map[string]bool{
	"args": true, "env": true, "url": true, "headers": true, "timeout": true,
	"enabled_tools": true, "disabled_tools": true,
}

// CheckExtra returns an *OwnedKeyError for the first key of x (in sorted
// order) that owned lists, or nil.
func CheckExtra(tool string, owned map[string]string, x Extra) error {
	for _, k := range x.Keys() {
		if attr, ok := owned[k]; ok {
			return &OwnedKeyError{Tool: tool, Key: k, Attribute: attr}
		}
	}
	return nil
}

// Files gives a provider the other files it reads settings from, each read
// and parsed at most once per plan or per file transaction, so that every
// decision of one run sees one version of each file.
type Files interface {
	// Parsed returns the file at path parsed by parse, or nil, nil when the
	// file does not exist. The result of the first call for a path is
	// returned to every later call for that path.
	Parsed(path string, parse func(path string, src []byte) (any, error)) (any, error)
}

// An Env describes the machine a provider looks at.
type Env struct {
	Home     string                      // the user's home directory
	Projects []string                    // absolute project folders to scan
	Getenv   func(string) (string, bool) // CODEX_HOME, XDG_CONFIG_HOME, …
}

// ErrNotConfigured says a tool's config file does not exist: the tool is not
// set up at that location, which is not an error for a scan.
var ErrNotConfigured = errors.New("not configured")

// A ParseError says a tool's file could not be parsed. Line and Column are
// zero when the parser does not report a position.
type ParseError struct {
	File   string
	Line   int
	Column int
	Err    error
}

func (e *ParseError) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return e.File + ":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Column) + ": " + e.Err.Error()
	case e.Line > 0:
		return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Err.Error()
	}
	return e.File + ": " + e.Err.Error()
}

func (e *ParseError) Unwrap() error { return e.Err }

package provider

import (
	"errors"
)

// A Provider reads and writes one tool's MCP configuration and knows its
// skills folders.
type Provider interface {
	// Name is the tool's name as written in a link: "claude", "codex", …
	Name() string
	// Locations lists the MCP config files this tool may have on this machine:
	// user level, and per project in env.Projects (and, for Claude, the
	// per-project "local" scope inside ~/.claude.json). Files that do not exist
	// are listed too; Read reports them as not configured.
	Locations(env Env) []Location
	// Read returns the entries at loc. A missing file returns ErrNotConfigured.
	// A file that does not parse returns a *ParseError: it is never treated as
	// empty.
	Read(loc Location) ([]Entry, error)
	// SkillDirs lists the tool's skills folders (user level and per project).
	SkillDirs(env Env) []SkillDir
	// Put adds or replaces the entry named e.Name at loc, written in the tool's
	// own format and secret reference syntax, changing no other byte of the
	// file. The file is re-read immediately before writing, written atomically,
	// parsed again and rolled back when the result is not exactly the intended
	// change. A secret the tool cannot reference is an error (see Render).
	Put(loc Location, e Entry) error
	// Remove deletes the entry named name at loc, changing no other byte. The
	// same guarantees as Put hold. Removing an absent entry is not an error.
	Remove(loc Location, name string) error
	// Render returns the entry as the tool would store it (JSON text for JSON
	// tools, a TOML table for codex), for plan diffs and hashing, or an error
	// when the tool cannot express part of it, such as a secret where the tool
	// has no reference syntax.
	Render(e Entry) ([]byte, error)
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
		return e.File + ":" + itoa(e.Line) + ":" + itoa(e.Column) + ": " + e.Err.Error()
	case e.Line > 0:
		return e.File + ":" + itoa(e.Line) + ": " + e.Err.Error()
	}
	return e.File + ": " + e.Err.Error()
}

func (e *ParseError) Unwrap() error { return e.Err }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

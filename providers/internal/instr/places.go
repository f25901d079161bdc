package instr

import (
	"path/filepath"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// A Table is one tool's places of rules, commands and agents, as data: the
// rows at user level and the rows of every project. Places expands it for
// one machine. The order of the rows is the order of the places.
type Table struct {
	Tool    string
	User    []Row
	Project []Row
}

// A Row is one place of a Table. Its paths are slash-separated and relative
// to the folder of the row's level — the tool's user folder for a User row,
// the project for a Project row — or, starting with "~/", to the home
// folder.
type Row struct {
	Kind string // instruction.Rule, instruction.Command or instruction.Agent
	// Files makes the row a shared file: the files the tool reads, in its
	// order of precedence (provider.Place.Files).
	Files []string
	// Dir makes the row a folder of one file per item (NAME+Ext), or of
	// one folder per item holding File (provider.Place.File).
	Dir, Ext, File string
	// Import is, for a shared file, the file it imports and the line that
	// does (provider.Place.Import).
	Import, ImportLine string
	Format             provider.Format
	Source             string
}

// Places expands t for env: the User rows under user (the tool's user
// folder), then each project's rows, project by project.
func (t Table) Places(env provider.Env, user string) []provider.Place {
	out := make([]provider.Place, 0, len(t.User)+len(t.Project)*len(env.Projects))
	for _, r := range t.User {
		out = append(out, r.place(t.Tool, provider.ScopeUser, "", env.Home, user))
	}
	for _, p := range env.Projects {
		for _, r := range t.Project {
			out = append(out, r.place(t.Tool, provider.ScopeProject, p, env.Home, p))
		}
	}
	return out
}

// place is the row at one level, its paths under root.
func (r Row) place(tool, scope, project, home, root string) provider.Place {
	at := func(rel string) string {
		if rest, ok := strings.CutPrefix(rel, "~/"); ok {
			return filepath.Join(home, rest)
		}
		return filepath.Join(root, rel)
	}
	pl := provider.Place{Tool: tool, Kind: r.Kind, Scope: scope, Project: project, Ext: r.Ext, File: r.File, Format: r.Format, Source: r.Source}
	if len(r.Files) > 0 {
		pl.Files = make([]string, len(r.Files))
		for i, f := range r.Files {
			pl.Files[i] = at(f)
		}
	}
	if r.Dir != "" {
		pl.Dir = at(r.Dir)
	}
	if r.Import != "" {
		pl.Import = &provider.Import{File: at(r.Import), Line: r.ImportLine}
	}
	return pl
}

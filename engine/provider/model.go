package provider

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/engine/service"
)

// Scopes of an entry or skills folder.
const (
	ScopeUser    = "user"    // the tool's user-level file
	ScopeLocal   = "local"   // Claude's per-project entries inside ~/.claude.json
	ScopeProject = "project" // a project's own file, e.g. .mcp.json
)

// A Location is one MCP config file, or one part of it, holding a map of
// servers.
type Location struct {
	Tool    string
	Scope   string
	Project string // absolute project folder for local and project scopes
	File    string // absolute path of the file
	// KeyPath is the path to the server map inside the file, e.g.
	// ["mcpServers"], ["projects", "/home/dev/work/api", "mcpServers"],
	// ["mcp_servers"] for codex.
	KeyPath []string
	// Note is what scan says of the file when it exists, besides its
	// entries: the layout it was read in (OpenCode's V2 layout, Devin's
	// before 3000.3), another tool that reads it too. Empty for most.
	Note string `json:",omitempty"`
	// ReadOnly marks a file chronicle reads and never writes: scan lists
	// its entries, a link never writes there (a plugin's servers, the
	// place an older version of the tool kept them).
	ReadOnly bool `json:",omitempty"`
	// Candidate makes scan list a read-only file whenever it exists, with
	// or without entries: one of several names sources give a tool's file
	// (Devin Desktop's), where that it exists is the news. Other
	// read-only files are listed when they hold entries.
	Candidate bool `json:",omitempty"`
	// Deny is where the tool keeps permission rules that deny the tools of
	// this file's servers one by one (Devin's permissions.deny beside its
	// mcp_config*.json); nil when it keeps none. A policy's deny list is
	// written there as one rule per tool, through a ListEditor.
	Deny *DenyList `json:",omitempty"`
}

// An Entry is one MCP server as a tool has it, in the normalized model of
// SPEC §4. References to the environment in the tool's own syntax (${X},
// ${env:X}, {env:X}, $X, bearer_token_env_var, env_vars) are read into
// secret references; anything else is kept literally.
type Entry struct {
	Name string // the key in the tool's file
	service.Definition

	Enabled bool
	// EnabledTools and DisabledTools are the tool's own allow and deny lists
	// (codex enabled_tools/disabled_tools, gemini includeTools/excludeTools,
	// windsurf disabledTools). Nil means the tool sets none.
	EnabledTools  []string
	DisabledTools []string
	Timeout       time.Duration // zero when the tool sets none
	// Extra holds the entry's keys the provider does not model: read, every
	// such key the entry has; declared, the keys chronicle writes as given
	// (target "TOOL" { extra = { … } }). See Extra.
	Extra Extra `json:",omitempty"`

	// Canonical is the entry as stored, re-encoded canonically (JSON with
	// sorted keys), so that two reads of the same entry hash alike whatever
	// the file's layout. Set by Read.
	Canonical []byte
}

// A SkillDir is one folder of skills.
type SkillDir struct {
	Tool    string
	Scope   string // user or project
	Project string // absolute project folder for project scope
	Dir     string // absolute path
	// SharedWith names the other tools that read the same folder (codex and
	// agents share ~/.agents/skills), so one link serves all of them.
	SharedWith []string
	// Files says the tool also takes a NAME.md file in the folder for a
	// skill of its own (Antigravity's single-file skills): scan lists it
	// as one, whichever tool sharing the folder it scans it under.
	Files bool
	// ReadOnly marks a folder chronicle reads and never writes: scan lists
	// its skills, a link never puts one there, adopt never links it (a
	// plugin's skills, which the tool's plugin manager keeps).
	ReadOnly bool
	// Note is what scan says of the folder besides its skills (whose
	// plugin it is). Empty for most.
	Note string
}

// InProject returns e with a relative cwd resolved in its project: a
// project's server runs in the project, so "./services/db" there is the
// project's folder joined, which a declaration (whose relative paths are
// relative to its own file) spells as an absolute path. Entries outside a
// project, and cwds with ~ or variables, are returned as they are. It is
// for comparing entries and for adopting them; what is written keeps the
// tool's own spelling unless the entry changes.
func InProject(loc Location, e Entry) Entry {
	if c := e.Cwd; loc.Project != "" && c != "" && !filepath.IsAbs(c) && !strings.HasPrefix(c, "~") && !strings.Contains(c, "$") {
		e.Cwd = filepath.Join(loc.Project, c)
	}
	return e
}

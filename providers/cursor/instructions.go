package cursor

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// Cursor's pages on project rules and subagents, and the change that
// brought .cursor/commands (Cursor 1.6; Cursor's own commands page is not
// in the stored documentation).
const (
	rulesDoc    = "https://cursor.com/docs/rules"
	commandsDoc = "https://github.com/microsoft/apm/pull/1046"
	agentsDoc   = "https://cursor.com/docs/subagents"
)

// places lists the commands and agents folders in ~/.cursor and, in each
// project, .cursor/rules (*.mdc), .cursor/commands and .cursor/agents.
// Cursor's user rules live in its settings, not in a file: a user-level
// rule has no place.
func places(env provider.Env) []provider.Place {
	return placeTable.Places(env, filepath.Join(env.Home, ".cursor"))
}

var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Command, Dir: "commands", Ext: ".md", Format: command, Source: commandsDoc},
		{Kind: instruction.Agent, Dir: "agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Dir: ".cursor/rules", Ext: ".mdc", Format: rule, Source: rulesDoc},
		{Kind: instruction.Command, Dir: ".cursor/commands", Ext: ".md", Format: command, Source: commandsDoc},
		{Kind: instruction.Agent, Dir: ".cursor/agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
}

// rule is an .mdc file: description, globs (comma-separated and unquoted,
// as Cursor writes them) and alwaysApply, true for a rule without globs.
var rule = instr.Markdown{
	Tool: tool, Kind: instruction.Rule,
	Header: func(in instruction.Instruction, h *instruction.Header) []string {
		h.Add("description", in.Description)
		if len(in.Globs) > 0 {
			h.Raw("globs", strings.Join(in.Globs, ","))
		}
		h.Add("alwaysApply", len(in.Globs) == 0)
		return nil
	},
	Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
		if err := instr.Strings(fm, map[string]*string{"description": &in.Description}); err != nil {
			return err
		}
		return instr.List(fm, "globs", &in.Globs)
	},
	Lenient: quoteGlobs,
}

// unquotedGlobs matches a globs line whose value YAML would not read (it
// starts with *, an alias).
var unquotedGlobs = regexp.MustCompile(`(?m)^globs:[ \t]*(\*[^\r\n]*?)[ \t]*(\r?)$`)

// quoteGlobs quotes an unquoted globs value so that the header reads as
// YAML: Cursor writes globs: **/*.go.
func quoteGlobs(src []byte) []byte {
	return unquotedGlobs.ReplaceAllFunc(src, func(line []byte) []byte {
		m := unquotedGlobs.FindSubmatch(line)
		return []byte("globs: '" + strings.ReplaceAll(string(m[1]), "'", "''") + "'" + string(m[2]))
	})
}

// command is a plain Markdown file: Cursor passes what follows the command
// along with it, and has no placeholder for it.
var command = instr.Markdown{Tool: tool, Kind: instruction.Command}

// agent is a subagent file: name, description and model; Cursor has no
// tool allowlist for them.
var agent = instr.Markdown{
	Tool: tool, Kind: instruction.Agent,
	Header: func(in instruction.Instruction, h *instruction.Header) []string {
		h.Add("name", in.Name)
		h.Add("description", in.Description)
		h.Add("model", in.Model)
		if len(in.Tools) > 0 {
			return []string{instr.ToolsDropped(tool, "")}
		}
		return nil
	},
	Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
		return instr.Strings(fm, map[string]*string{"description": &in.Description, "model": &in.Model})
	},
}

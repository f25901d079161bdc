package claude

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// Claude Code's pages on memory (CLAUDE.md, @imports), slash commands and
// subagents.
const (
	memoryDoc   = "https://code.claude.com/docs/en/memory"
	commandsDoc = "https://code.claude.com/docs/en/slash-commands"
	agentsDoc   = "https://code.claude.com/docs/en/sub-agents"
)

// places lists CLAUDE.md, the commands and the agents folders in
// ~/.claude (or $CLAUDE_CONFIG_DIR) and in each project. A project's
// CLAUDE.md imports the project's AGENTS.md ("@AGENTS.md") rather than
// holding a copy of the blocks other tools have there: Claude Code reads
// CLAUDE.md, not AGENTS.md.
func places(env provider.Env) []provider.Place { return placeTable.Places(env, configDir(env)) }

var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"CLAUDE.md"}, Format: instr.Root{}, Source: memoryDoc},
		{Kind: instruction.Command, Dir: "commands", Ext: ".md", Format: command, Source: commandsDoc},
		{Kind: instruction.Agent, Dir: "agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"CLAUDE.md"}, Import: "AGENTS.md", ImportLine: "@AGENTS.md", Format: instr.Root{}, Source: memoryDoc},
		{Kind: instruction.Command, Dir: ".claude/commands", Ext: ".md", Format: command, Source: commandsDoc},
		{Kind: instruction.Agent, Dir: ".claude/agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
}

// command is a slash command file: description and argument-hint in the
// header; the placeholders are Claude Code's own.
var command = instr.Markdown{
	Tool: tool, Kind: instruction.Command, Placeholders: instr.Verbatim,
	Header: func(in instruction.Instruction, h *instruction.Header) []string {
		h.Add("description", in.Description)
		h.Add("argument-hint", in.ArgumentHint)
		return nil
	},
	Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
		return instr.Strings(fm, map[string]*string{"description": &in.Description, "argument-hint": &in.ArgumentHint})
	},
}

// agent is a subagent file: name, description, tools (one comma-separated
// string) and model in the header.
var agent = instr.Markdown{
	Tool: tool, Kind: instruction.Agent,
	Header: func(in instruction.Instruction, h *instruction.Header) []string {
		h.Add("name", in.Name)
		h.Add("description", in.Description)
		h.Add("tools", strings.Join(in.Tools, ", "))
		h.Add("model", in.Model)
		return nil
	},
	Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
		if err := instr.Strings(fm, map[string]*string{"description": &in.Description, "model": &in.Model}); err != nil {
			return err
		}
		return instr.List(fm, "tools", &in.Tools)
	},
}

package opencode

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
)

// OpenCode's pages on rules (AGENTS.md), commands and agents.
const (
	rulesDoc    = "https://opencode.ai/docs/rules/"
	commandsDoc = "https://opencode.ai/docs/commands/"
	agentsDoc   = "https://opencode.ai/docs/agents/"
)

// places lists AGENTS.md, commands and agents in ~/.config/opencode
// (honouring $XDG_CONFIG_HOME) and, per project, AGENTS.md at its root,
// .opencode/commands and .opencode/agents.
func places(env provider.Env) []provider.Place {
	return placeTable.Places(env, filepath.Join(jsontool.ConfigHome(env), "opencode"))
}

var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"AGENTS.md"}, Format: instr.Root{}, Source: rulesDoc},
		{Kind: instruction.Command, Dir: "commands", Ext: ".md", Format: command, Source: commandsDoc},
		{Kind: instruction.Agent, Dir: "agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"AGENTS.md"}, Format: instr.Root{}, Source: rulesDoc},
		{Kind: instruction.Command, Dir: ".opencode/commands", Ext: ".md", Format: command, Source: commandsDoc},
		{Kind: instruction.Agent, Dir: ".opencode/agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
}

// command is a command file: a description in the header; $ARGUMENTS and
// $1 … $9 as Claude Code spells them.
var command = instr.Markdown{
	Tool: tool, Kind: instruction.Command, Placeholders: instr.Verbatim,
	Header: func(in instruction.Instruction, h *instruction.Header) []string {
		h.Add("description", in.Description)
		return nil
	},
	Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
		return instr.Strings(fm, map[string]*string{"description": &in.Description})
	},
}

// agent is an agent file run as a subagent (mode: subagent): description
// and model; OpenCode grants tools through permissions, not a list.
var agent = instr.Markdown{
	Tool: tool, Kind: instruction.Agent,
	Header: func(in instruction.Instruction, h *instruction.Header) []string {
		h.Add("description", in.Description)
		h.Add("mode", "subagent")
		h.Add("model", in.Model)
		if len(in.Tools) > 0 {
			return []string{instr.ToolsDropped(tool, "opencode grants an agent its tools through permissions, not a list")}
		}
		return nil
	},
	Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
		return instr.Strings(fm, map[string]*string{"description": &in.Description, "model": &in.Model})
	},
}

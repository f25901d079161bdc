package junie

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// Junie's pages on guidelines (.junie/AGENTS.md, then AGENTS.md, then the
// legacy .junie/guidelines.md; ~/.junie/AGENTS.md), custom slash commands
// and subagents.
const (
	guidelinesDoc = "https://junie.jetbrains.com/docs/guidelines-and-memory.html"
	commandsDoc   = "https://junie.jetbrains.com/docs/custom-slash-commands.html"
	agentsDoc     = "https://junie.jetbrains.com/docs/junie-cli-subagents.html"
)

// places lists AGENTS.md, commands and agents in ~/.junie and, per
// project, the first that exists of the files Junie reads a project's
// guidelines from, in its order (.junie/AGENTS.md, AGENTS.md, the legacy
// .junie/guidelines.md: it reads that one only; .junie/AGENTS.md is
// created when none exists), .junie/commands and .junie/agents.
func places(env provider.Env) []provider.Place {
	return placeTable.Places(env, filepath.Join(env.Home, ".junie"))
}

var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"AGENTS.md"}, Format: instr.Root{}, Source: guidelinesDoc},
		{Kind: instruction.Command, Dir: "commands", Ext: ".md", Format: command, Source: commandsDoc},
		{Kind: instruction.Agent, Dir: "agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Files: []string{".junie/AGENTS.md", "AGENTS.md", ".junie/guidelines.md"}, Format: instr.Root{}, Source: guidelinesDoc},
		{Kind: instruction.Command, Dir: ".junie/commands", Ext: ".md", Format: command, Source: commandsDoc},
		{Kind: instruction.Agent, Dir: ".junie/agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
}

// placeholders is Junie's spelling: a command names its arguments with
// $NAME keywords, so $ARGUMENTS is one argument named ARGUMENTS; Junie has
// no positional ones.
var placeholders = instruction.Table{instruction.Arguments: instruction.Arguments}

// command is a command file: a description in the header (Junie reads no
// other field).
var command = instr.DescribedCommand(tool, placeholders)

// agent is a subagent file: name, description, tools (a list) and model.
var agent = instr.ListAgent(tool, "")

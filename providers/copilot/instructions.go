package copilot

import (
	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// GitHub's pages on the Copilot CLI configuration folder (instructions/,
// agents/), on custom instructions (.github/instructions), on custom
// agents (.github/agents, ~/.copilot/agents), and the CLI reference (the
// commands and agents it reads from a project's .claude folder).
const (
	configDirDoc    = "https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-config-dir-reference"
	instructionsDoc = "https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions"
	agentsDoc       = "https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/create-custom-agents-for-cli"
	referenceDoc    = "https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-command-reference"
)

// places lists, in the Copilot home ($COPILOT_HOME, else ~/.copilot),
// instructions/ and agents/, and per project .github/instructions and
// .github/agents: the folders VS Code reads too, rendered with the same
// formats, so that one file serves both. Copilot CLI reads prompt files
// nowhere, but a project's Claude Code commands (.claude/commands, "an
// alternative skill format") and agents (.claude/agents, after
// .github/agents at the same level) it reads as Claude Code writes them:
// a command is written there, once for both tools, and an agent Claude
// Code has in the project is read from there rather than written twice
// (decision 0152).
func places(env provider.Env) []provider.Place { return placeTable.Places(env, home(env)) }

var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Rule, Dir: "instructions", Ext: ".instructions.md", Format: rule, Source: configDirDoc},
		{Kind: instruction.Agent, Dir: "agents", Ext: ".agent.md", Format: agent, Source: configDirDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Dir: ".github/instructions", Ext: ".instructions.md", Format: rule, Source: instructionsDoc},
		{Kind: instruction.Agent, Dir: ".github/agents", Ext: ".agent.md", Format: agent, Source: agentsDoc},
		{Kind: instruction.Agent, Dir: ".claude/agents", Ext: ".md", Format: claudeAgent, Source: referenceDoc},
		{Kind: instruction.Command, Dir: ".claude/commands", Ext: ".md", Format: claudeCommand, Source: referenceDoc},
	},
}

// rule and agent are VS Code's formats, which Copilot CLI shares;
// claudeAgent and claudeCommand are Claude Code's, which it reads too.
var (
	rule          = instr.CopilotRule(tool)
	agent         = instr.ListAgent(tool, "")
	claudeAgent   = instr.ClaudeAgent(tool)
	claudeCommand = instr.ClaudeCommand(tool)
)

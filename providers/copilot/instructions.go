package copilot

import (
	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// GitHub's pages on the Copilot CLI configuration folder (instructions/,
// agents/), on custom instructions (.github/instructions) and on custom
// agents (.github/agents, ~/.copilot/agents).
const (
	configDirDoc    = "https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-config-dir-reference"
	instructionsDoc = "https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions"
	agentsDoc       = "https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/create-custom-agents-for-cli"
)

// places lists, in the Copilot home ($COPILOT_HOME, else ~/.copilot),
// instructions/ and agents/, and per project .github/instructions and
// .github/agents: the folders VS Code reads too, rendered with the same
// formats, so that one file serves both. Copilot CLI reads no prompt
// files: its slash commands are skills.
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
	},
}

// rule and agent are VS Code's formats, which Copilot CLI shares.
var (
	rule  = instr.CopilotRule(tool)
	agent = instr.ListAgent(tool, "")
)

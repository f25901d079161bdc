package copilot

import (
	"path/filepath"

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
func places(env provider.Env) []provider.Place {
	dir := home(env)
	out := []provider.Place{
		instr.Folder(tool, instruction.Rule, provider.ScopeUser, "", filepath.Join(dir, "instructions"), ".instructions.md", rule, configDirDoc),
		instr.Folder(tool, instruction.Agent, provider.ScopeUser, "", filepath.Join(dir, "agents"), ".agent.md", agent, configDirDoc),
	}
	return append(out, instr.PerProject(env, func(p string) []provider.Place {
		gh := filepath.Join(p, ".github")
		return []provider.Place{
			instr.Folder(tool, instruction.Rule, provider.ScopeProject, p, filepath.Join(gh, "instructions"), ".instructions.md", rule, instructionsDoc),
			instr.Folder(tool, instruction.Agent, provider.ScopeProject, p, filepath.Join(gh, "agents"), ".agent.md", agent, agentsDoc),
		}
	})...)
}

// rule and agent are VS Code's formats, which Copilot CLI shares.
var (
	rule  = instr.CopilotRule(tool)
	agent = instr.ListAgent(tool, "")
)

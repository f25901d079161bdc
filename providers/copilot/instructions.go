package copilot

import (
	"path/filepath"

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
func places(env provider.Env) []provider.Place {
	dir := home(env)
	out := []provider.Place{
		instr.Folder(tool, instruction.Rule, provider.ScopeUser, "", filepath.Join(dir, "instructions"), ".instructions.md", rule, configDirDoc),
		instr.Folder(tool, instruction.Agent, provider.ScopeUser, "", filepath.Join(dir, "agents"), ".agent.md", agent, configDirDoc),
	}
	return append(out, instr.PerProject(env, func(p string) []provider.Place {
		gh := filepath.Join(p, ".github")
		claude := filepath.Join(p, ".claude")
		return []provider.Place{
			instr.Folder(tool, instruction.Rule, provider.ScopeProject, p, filepath.Join(gh, "instructions"), ".instructions.md", rule, instructionsDoc),
			instr.Folder(tool, instruction.Agent, provider.ScopeProject, p, filepath.Join(gh, "agents"), ".agent.md", agent, agentsDoc),
			instr.Folder(tool, instruction.Agent, provider.ScopeProject, p, filepath.Join(claude, "agents"), ".md", claudeAgent, referenceDoc),
			instr.Folder(tool, instruction.Command, provider.ScopeProject, p, filepath.Join(claude, "commands"), ".md", claudeCommand, referenceDoc),
		}
	})...)
}

// rule and agent are VS Code's formats, which Copilot CLI shares;
// claudeAgent and claudeCommand are Claude Code's, which it reads too.
var (
	rule          = instr.CopilotRule(tool)
	agent         = instr.ListAgent(tool, "")
	claudeAgent   = instr.ClaudeAgent(tool)
	claudeCommand = instr.ClaudeCommand(tool)
)

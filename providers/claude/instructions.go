package claude

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// Claude Code's pages on memory (CLAUDE.md, @imports, AGENTS.md), slash
// commands and subagents.
const (
	memoryDoc   = "https://code.claude.com/docs/en/memory"
	commandsDoc = "https://code.claude.com/docs/en/slash-commands"
	agentsDoc   = "https://code.claude.com/docs/en/sub-agents"
)

// agentsMd is what Claude Code 2.1.277 and later reads in a project with
// no CLAUDE.md: the project's AGENTS.md, loaded where and how CLAUDE.md
// would be. A CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md in the
// project's folder or any folder above it switches this off (the changelog
// of 2.1.277, and the caveats implementers found: docs/providers.md). The
// user's memory ~/.claude/CLAUDE.md is no project file and does not count,
// though it is the .claude/CLAUDE.md of the home folder (decision 0150).
func agentsMd(userMemory string) *provider.Native {
	return &provider.Native{
		Unless: []string{"CLAUDE.md", filepath.Join(".claude", "CLAUDE.md"), "CLAUDE.local.md"},
		Except: []string{userMemory},
		Since:  "Claude Code 2.1.277", Where: "not yet on Bedrock, Vertex or Foundry",
	}
}

// places lists CLAUDE.md, the commands and the agents folders in
// ~/.claude (or $CLAUDE_CONFIG_DIR) and in each project. A project's rules
// go into its AGENTS.md, which Claude Code reads itself where the project
// has no CLAUDE.md; where one is found, the project's CLAUDE.md imports
// AGENTS.md ("@AGENTS.md") rather than holding a copy of the blocks other
// tools have there.
func places(env provider.Env) []provider.Place {
	dir := configDir(env)
	userMemory := filepath.Join(dir, "CLAUDE.md")
	out := []provider.Place{
		instr.Shared(tool, instruction.Rule, provider.ScopeUser, "", instr.Root{}, memoryDoc, userMemory),
		instr.Folder(tool, instruction.Command, provider.ScopeUser, "", filepath.Join(dir, "commands"), ".md", command, commandsDoc),
		instr.Folder(tool, instruction.Agent, provider.ScopeUser, "", filepath.Join(dir, "agents"), ".md", agent, agentsDoc),
	}
	return append(out, instr.PerProject(env, func(p string) []provider.Place {
		rules := instr.Shared(tool, instruction.Rule, provider.ScopeProject, p, instr.Root{}, memoryDoc, filepath.Join(p, "CLAUDE.md"))
		rules.Import = &provider.Import{File: filepath.Join(p, "AGENTS.md"), Line: "@AGENTS.md", Native: agentsMd(userMemory)}
		return []provider.Place{
			rules,
			instr.Folder(tool, instruction.Command, provider.ScopeProject, p, filepath.Join(p, ".claude", "commands"), ".md", command, commandsDoc),
			instr.Folder(tool, instruction.Agent, provider.ScopeProject, p, filepath.Join(p, ".claude", "agents"), ".md", agent, agentsDoc),
		}
	})...)
}

// command and agent are Claude Code's slash command and subagent formats.
var (
	command = instr.ClaudeCommand(tool)
	agent   = instr.ClaudeAgent(tool)
)

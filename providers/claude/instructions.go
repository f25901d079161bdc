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
	out := placeTable.Places(env, dir)
	native := agentsMd(filepath.Join(dir, "CLAUDE.md"))
	for i := range out {
		if out[i].Import != nil {
			out[i].Import.Native = native
		}
	}
	return out
}

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

// command and agent are Claude Code's slash command and subagent formats.
var (
	command = instr.ClaudeCommand(tool)
	agent   = instr.ClaudeAgent(tool)
)

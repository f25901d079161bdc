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

// projectFiles are the files Junie reads a project's guidelines from, in
// its order: it reads the first that exists, and only that one.
var projectFiles = []string{filepath.Join(".junie", "AGENTS.md"), "AGENTS.md", filepath.Join(".junie", "guidelines.md")}

// places lists AGENTS.md, commands and agents in ~/.junie and, per
// project, the first of projectFiles that exists (.junie/AGENTS.md when
// none does), .junie/commands and .junie/agents.
func places(env provider.Env) []provider.Place {
	dir := filepath.Join(env.Home, ".junie")
	out := []provider.Place{
		instr.Shared(tool, instruction.Rule, provider.ScopeUser, "", instr.Root{}, guidelinesDoc, filepath.Join(dir, "AGENTS.md")),
		instr.Folder(tool, instruction.Command, provider.ScopeUser, "", filepath.Join(dir, "commands"), ".md", command, commandsDoc),
		instr.Folder(tool, instruction.Agent, provider.ScopeUser, "", filepath.Join(dir, "agents"), ".md", agent, agentsDoc),
	}
	return append(out, instr.PerProject(env, func(p string) []provider.Place {
		files := make([]string, len(projectFiles))
		for i, f := range projectFiles {
			files[i] = filepath.Join(p, f)
		}
		return []provider.Place{
			instr.Shared(tool, instruction.Rule, provider.ScopeProject, p, instr.Root{}, guidelinesDoc, files...),
			instr.Folder(tool, instruction.Command, provider.ScopeProject, p, filepath.Join(p, ".junie", "commands"), ".md", command, commandsDoc),
			instr.Folder(tool, instruction.Agent, provider.ScopeProject, p, filepath.Join(p, ".junie", "agents"), ".md", agent, agentsDoc),
		}
	})...)
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

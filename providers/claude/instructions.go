package claude

import (
	"path/filepath"
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
func places(env provider.Env) []provider.Place {
	dir := configDir(env)
	out := []provider.Place{
		instr.Shared(tool, instruction.Rule, provider.ScopeUser, "", instr.Root{}, memoryDoc, filepath.Join(dir, "CLAUDE.md")),
		instr.Folder(tool, instruction.Command, provider.ScopeUser, "", filepath.Join(dir, "commands"), ".md", command, commandsDoc),
		instr.Folder(tool, instruction.Agent, provider.ScopeUser, "", filepath.Join(dir, "agents"), ".md", agent, agentsDoc),
	}
	return append(out, instr.PerProject(env, func(p string) []provider.Place {
		rules := instr.Shared(tool, instruction.Rule, provider.ScopeProject, p, instr.Root{}, memoryDoc, filepath.Join(p, "CLAUDE.md"))
		rules.Import = &provider.Import{File: filepath.Join(p, "AGENTS.md"), Line: "@AGENTS.md"}
		return []provider.Place{
			rules,
			instr.Folder(tool, instruction.Command, provider.ScopeProject, p, filepath.Join(p, ".claude", "commands"), ".md", command, commandsDoc),
			instr.Folder(tool, instruction.Agent, provider.ScopeProject, p, filepath.Join(p, ".claude", "agents"), ".md", agent, agentsDoc),
		}
	})...)
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

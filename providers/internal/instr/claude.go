package instr

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/instruction"
)

// ClaudeCommand is the format of Claude Code's slash command file,
// .claude/commands/NAME.md: description and argument-hint in the header;
// the placeholders are Claude Code's own. Copilot CLI reads the same
// folder of a project with the same header, so both render it alike and
// the file is written once (decision 0152).
func ClaudeCommand(tool string) Markdown {
	return Markdown{
		Tool: tool, Kind: instruction.Command, Placeholders: Verbatim,
		Header: func(in instruction.Instruction, h *instruction.Header) []string {
			h.Add("description", in.Description)
			h.Add("argument-hint", in.ArgumentHint)
			return nil
		},
		Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
			return Strings(fm, map[string]*string{"description": &in.Description, "argument-hint": &in.ArgumentHint})
		},
	}
}

// ClaudeAgent is the format of Claude Code's subagent file,
// .claude/agents/NAME.md: name, description, tools (one comma-separated
// string) and model in the header. Copilot CLI reads a project's
// .claude/agents too.
func ClaudeAgent(tool string) Markdown {
	return Markdown{
		Tool: tool, Kind: instruction.Agent,
		Header: func(in instruction.Instruction, h *instruction.Header) []string {
			h.Add("name", in.Name)
			h.Add("description", in.Description)
			h.Add("tools", strings.Join(in.Tools, ", "))
			h.Add("model", in.Model)
			return nil
		},
		Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
			if err := Strings(fm, map[string]*string{"description": &in.Description, "model": &in.Model}); err != nil {
				return err
			}
			return List(fm, "tools", &in.Tools)
		},
	}
}

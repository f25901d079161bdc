package instr

import (
	"github.com/chronicle-dev/chronicle/engine/instruction"
)

// ListAgent is the format of an agent file whose header holds name,
// description, tools (a YAML list) and model: Copilot's NAME.agent.md (VS
// Code and Copilot CLI), Antigravity's and goose's .agents/agents/NAME.md,
// Junie's. Tools that share a folder render their files with it alike.
//
// ignoresTools, when set, is the note for a tool that reads such files but
// has no allowlist (goose): the tools line is still written, since another
// tool reading the same folder has one, and the plan says the tool ignores
// it.
func ListAgent(tool, ignoresTools string) Markdown {
	return Markdown{
		Tool: tool, Kind: instruction.Agent,
		Header: func(in instruction.Instruction, h *instruction.Header) []string {
			h.Add("name", in.Name)
			h.Add("description", in.Description)
			h.Add("tools", in.Tools)
			h.Add("model", in.Model)
			if ignoresTools != "" && len(in.Tools) > 0 {
				return []string{ignoresTools}
			}
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

package instr

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/instruction"
)

// CopilotRule is the format of a Copilot instructions file
// (NAME.instructions.md): description and applyTo (the globs, or "**" for
// a rule that always applies). VS Code and Copilot CLI read the same files
// (.github/instructions, ~/.copilot/instructions), so both render them
// with this one format: a file two tools share holds one text.
func CopilotRule(tool string) Markdown {
	return Markdown{
		Tool: tool, Kind: instruction.Rule,
		Header: func(in instruction.Instruction, h *instruction.Header) []string {
			h.Add("description", in.Description)
			applyTo := "**"
			if len(in.Globs) > 0 {
				applyTo = strings.Join(in.Globs, ",")
			}
			h.Add("applyTo", applyTo)
			return nil
		},
		Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
			if err := Strings(fm, map[string]*string{"description": &in.Description}); err != nil {
				return err
			}
			if err := List(fm, "applyTo", &in.Globs); err != nil {
				return err
			}
			if len(in.Globs) == 1 && in.Globs[0] == "**" {
				in.Globs = nil
			}
			return nil
		},
	}
}

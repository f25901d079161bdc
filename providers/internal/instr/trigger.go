package instr

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/instruction"
)

// TriggerRule is the format of a rule file activated by a trigger header,
// the Windsurf family's (Windsurf, Devin, Antigravity): trigger always_on,
// or glob with the globs, and a description. globsList writes the globs as
// a YAML list (Devin CLI refuses a string); otherwise as one
// comma-separated string, as Windsurf writes them.
func TriggerRule(tool string, globsList bool) Markdown {
	return Markdown{
		Tool: tool, Kind: instruction.Rule,
		Header: func(in instruction.Instruction, h *instruction.Header) []string {
			switch {
			case len(in.Globs) == 0:
				h.Add("trigger", "always_on")
			case globsList:
				h.Add("trigger", "glob")
				h.Add("globs", in.Globs)
			default:
				h.Add("trigger", "glob")
				h.Add("globs", strings.Join(in.Globs, ","))
			}
			h.Add("description", in.Description)
			return nil
		},
		Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
			if err := Strings(fm, map[string]*string{"description": &in.Description}); err != nil {
				return err
			}
			return List(fm, "globs", &in.Globs)
		},
	}
}

// DescribedCommand is the format of a command file whose header holds a
// description alone (Windsurf's and Antigravity's workflows, Junie's
// commands), with the tool's placeholders (nil: it spells none).
func DescribedCommand(tool string, placeholders instruction.Table) Markdown {
	return Markdown{
		Tool: tool, Kind: instruction.Command, Placeholders: placeholders,
		Header: func(in instruction.Instruction, h *instruction.Header) []string {
			h.Add("description", in.Description)
			return nil
		},
		Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
			return Strings(fm, map[string]*string{"description": &in.Description})
		},
	}
}

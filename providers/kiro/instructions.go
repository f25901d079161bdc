package kiro

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// Kiro's pages on steering (inclusion headers, ~/.kiro/steering), on the
// Kiro CLI's prompts (.kiro/prompts, ~/.kiro/prompts) and on custom agents
// (Markdown since IDE 1.0 and CLI 3.0).
const (
	steeringDoc = "https://kiro.dev/docs/steering/"
	promptsDoc  = "https://kiro.dev/docs/cli/chat/manage-prompts/"
	agentsDoc   = "https://kiro.dev/docs/custom-agents/"
)

// places lists steering, prompts and agents in ~/.kiro and in each
// project's .kiro.
func places(env provider.Env) []provider.Place {
	return placeTable.Places(env, filepath.Join(env.Home, ".kiro"))
}

var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Rule, Dir: "steering", Ext: ".md", Format: userSteering, Source: steeringDoc},
		{Kind: instruction.Command, Dir: "prompts", Ext: ".md", Format: prompt, Source: promptsDoc},
		{Kind: instruction.Agent, Dir: "agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Dir: ".kiro/steering", Ext: ".md", Format: projectSteering, Source: steeringDoc},
		{Kind: instruction.Command, Dir: ".kiro/prompts", Ext: ".md", Format: prompt, Source: promptsDoc},
		{Kind: instruction.Agent, Dir: ".kiro/agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
}

// steering is a steering file: inclusion always, or fileMatch with
// fileMatchPattern (one glob as a string, several as a list), and a
// description. fileMatch is ignored in ~/.kiro/steering: the user-level
// format says so in a note.
func steering(note string) instr.Markdown {
	return instr.Markdown{
		Tool: tool, Kind: instruction.Rule,
		Header: func(in instruction.Instruction, h *instruction.Header) []string {
			switch len(in.Globs) {
			case 0:
				h.Add("inclusion", "always")
			case 1:
				h.Add("inclusion", "fileMatch")
				h.Add("fileMatchPattern", in.Globs[0])
			default:
				h.Add("inclusion", "fileMatch")
				h.Add("fileMatchPattern", in.Globs)
			}
			h.Add("description", in.Description)
			if note != "" && len(in.Globs) > 0 {
				return []string{note}
			}
			return nil
		},
		Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
			if err := instr.Strings(fm, map[string]*string{"description": &in.Description}); err != nil {
				return err
			}
			return instr.List(fm, "fileMatchPattern", &in.Globs)
		},
	}
}

var (
	projectSteering = steering("")
	userSteering    = steering("Kiro does not apply fileMatch steering from ~/.kiro/steering (kirodotdev/Kiro#9176): the rule is written, but may never load from there (a link with a project applies it)")
)

// prompt is a prompt file: plain Markdown. The Kiro CLI substitutes no
// placeholder in file prompts.
var prompt = instr.Markdown{Tool: tool, Kind: instruction.Command}

// agent is a custom agent file: description, tools (a list of Kiro's tool
// categories: read, write, shell, web, …) and model; the file's name is
// the agent's.
var agent = instr.Markdown{
	Tool: tool, Kind: instruction.Agent,
	Header: func(in instruction.Instruction, h *instruction.Header) []string {
		h.Add("description", in.Description)
		h.Add("tools", in.Tools)
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

package vscode

import (
	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// VS Code's pages on custom instructions, prompt files and custom agents.
const (
	instructionsDoc = "https://code.visualstudio.com/docs/agent-customization/custom-instructions"
	promptsDoc      = "https://code.visualstudio.com/docs/agent-customization/prompt-files"
	agentsDoc       = "https://code.visualstudio.com/docs/agent-customization/custom-agents"
)

// places lists, at user level, ~/.copilot/instructions, the prompts folder
// of the Code user profile (beside mcp.json) and ~/.copilot/agents; in each
// project, .github/instructions, .github/prompts and .github/agents.
func places(env provider.Env, userDir string) []provider.Place {
	return placeTable.Places(env, userDir)
}

var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Rule, Dir: "~/.copilot/instructions", Ext: ".instructions.md", Format: rule, Source: instructionsDoc},
		{Kind: instruction.Command, Dir: "prompts", Ext: ".prompt.md", Format: prompt, Source: promptsDoc},
		{Kind: instruction.Agent, Dir: "~/.copilot/agents", Ext: ".agent.md", Format: agent, Source: agentsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Dir: ".github/instructions", Ext: ".instructions.md", Format: rule, Source: instructionsDoc},
		{Kind: instruction.Command, Dir: ".github/prompts", Ext: ".prompt.md", Format: prompt, Source: promptsDoc},
		{Kind: instruction.Agent, Dir: ".github/agents", Ext: ".agent.md", Format: agent, Source: agentsDoc},
	},
}

// rule is an instructions file (description, applyTo), in the format
// Copilot CLI shares: both read .github/instructions and
// ~/.copilot/instructions.
var rule = instr.CopilotRule(tool)

// placeholders is VS Code's spelling: input variables, which the chat asks
// for.
var placeholders = instruction.Table{
	instruction.Arguments: "${input:arguments}",
	"$1":                  "${input:arg1}", "$2": "${input:arg2}", "$3": "${input:arg3}", "$4": "${input:arg4}", "$5": "${input:arg5}",
	"$6": "${input:arg6}", "$7": "${input:arg7}", "$8": "${input:arg8}", "$9": "${input:arg9}",
}

// prompt is a prompt file: description and argument-hint in the header.
var prompt = instr.Markdown{
	Tool: tool, Kind: instruction.Command, Placeholders: placeholders,
	Header: func(in instruction.Instruction, h *instruction.Header) []string {
		h.Add("description", in.Description)
		h.Add("argument-hint", in.ArgumentHint)
		return nil
	},
	Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
		return instr.Strings(fm, map[string]*string{"description": &in.Description, "argument-hint": &in.ArgumentHint})
	},
}

// agent is a custom agent file (name, description, tools as a list,
// model), in the format Copilot CLI shares: both read .github/agents and
// ~/.copilot/agents.
var agent = instr.ListAgent(tool, "")

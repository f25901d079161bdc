package devin

import (
	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// Devin's pages on rules (AGENTS.md, the global AGENTS.md), on workspace
// rules (.devin/rules with trigger headers, in Devin Desktop's memories
// page) and on custom subagents (.devin/agents/NAME/AGENT.md).
const (
	rulesDoc     = "https://docs.devin.ai/cli/extensibility/rules"
	workspaceDoc = "https://docs.devin.ai/desktop/cascade/memories"
	agentsDoc    = "https://docs.devin.ai/cli/subagents"
)

// places lists, at user level, AGENTS.md and the agents folder in Devin's
// config folder; per project, .devin/rules and .devin/agents. Devin has
// no command files: its slash commands are skills.
func places(goos string) func(env provider.Env) []provider.Place {
	return func(env provider.Env) []provider.Place { return placeTable.Places(env, configDir(env, goos)) }
}

// The agents folders hold one folder per agent, each holding AGENT.md
// (the folder's name is the agent's).
var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"AGENTS.md"}, Format: instr.Root{}, Source: rulesDoc},
		{Kind: instruction.Agent, Dir: "agents", File: "AGENT.md", Format: agent, Source: agentsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Dir: ".devin/rules", Ext: ".md", Format: rule, Source: workspaceDoc},
		{Kind: instruction.Agent, Dir: ".devin/agents", File: "AGENT.md", Format: agent, Source: agentsDoc},
	},
}

// rule is a workspace rule: trigger always_on, or glob with its globs as a
// YAML list (Devin CLI does not load a rule whose globs are one string),
// and a description.
var rule = instr.TriggerRule(tool, true)

// agent is a subagent profile: name, description, model and allowed-tools
// (a list).
var agent = instr.Markdown{
	Tool: tool, Kind: instruction.Agent,
	Header: func(in instruction.Instruction, h *instruction.Header) []string {
		h.Add("name", in.Name)
		h.Add("description", in.Description)
		h.Add("model", in.Model)
		h.Add("allowed-tools", in.Tools)
		return nil
	},
	Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
		if err := instr.Strings(fm, map[string]*string{"description": &in.Description, "model": &in.Model}); err != nil {
			return err
		}
		return instr.List(fm, "allowed-tools", &in.Tools)
	},
}

package antigravity

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// The pages on the files the Antigravity CLI reads: the migration guide
// Google keeps in the Gemini CLI repository (~/.gemini/GEMINI.md), rules and
// workflows (.agents/rules, .agents/workflows, triggers), and custom agents
// (Markdown in .agents/agents and ~/.gemini/config/agents, CLI 1.1.6).
const (
	migrationDoc = "https://github.com/google-gemini/gemini-cli/blob/main/docs/resources/migrating-to-antigravity-cli.md"
	rulesDoc     = "https://antigravity.google/docs/rules-workflows"
	agentsDoc    = "https://antigravity.google/docs/subagents"
)

// places lists, at user level, ~/.gemini/GEMINI.md (the file Gemini CLI
// reads too: one block serves both), the global workflows in
// ~/.gemini/config/global_workflows and the agents in
// ~/.gemini/config/agents; per project, .agents/rules, .agents/workflows
// and .agents/agents (the last shared with goose).
func places(env provider.Env) []provider.Place {
	return placeTable.Places(env, filepath.Join(env.Home, ".gemini"))
}

var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"GEMINI.md"}, Format: instr.Root{}, Source: migrationDoc},
		{Kind: instruction.Command, Dir: "config/global_workflows", Ext: ".md", Format: workflow, Source: rulesDoc},
		{Kind: instruction.Agent, Dir: "config/agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Dir: ".agents/rules", Ext: ".md", Format: rule, Source: rulesDoc},
		{Kind: instruction.Command, Dir: ".agents/workflows", Ext: ".md", Format: workflow, Source: rulesDoc},
		{Kind: instruction.Agent, Dir: ".agents/agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
}

// rule is a workspace rule: trigger always_on, or glob with its globs (one
// comma-separated string, as in Windsurf, whose rules these descend from),
// and a description. agy loads a rule only with a trigger header.
var rule = instr.TriggerRule(tool, false)

// workflow is a workflow, invoked as /NAME: a description in the header;
// Antigravity documents no placeholder for what follows the command.
var workflow = instr.DescribedCommand(tool, nil)

// agent is a custom agent file: name, description, tools (a list) and
// model. goose reads the same .agents/agents folder and renders it alike.
var agent = instr.ListAgent(tool, "")

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
	gemini := filepath.Join(env.Home, ".gemini")
	config := filepath.Join(gemini, "config")
	out := []provider.Place{
		instr.Shared(tool, instruction.Rule, provider.ScopeUser, "", instr.Root{}, migrationDoc, filepath.Join(gemini, "GEMINI.md")),
		instr.Folder(tool, instruction.Command, provider.ScopeUser, "", filepath.Join(config, "global_workflows"), ".md", workflow, rulesDoc),
		instr.Folder(tool, instruction.Agent, provider.ScopeUser, "", filepath.Join(config, "agents"), ".md", agent, agentsDoc),
	}
	return append(out, instr.PerProject(env, func(p string) []provider.Place {
		dir := filepath.Join(p, ".agents")
		return []provider.Place{
			instr.Folder(tool, instruction.Rule, provider.ScopeProject, p, filepath.Join(dir, "rules"), ".md", rule, rulesDoc),
			instr.Folder(tool, instruction.Command, provider.ScopeProject, p, filepath.Join(dir, "workflows"), ".md", workflow, rulesDoc),
			instr.Folder(tool, instruction.Agent, provider.ScopeProject, p, filepath.Join(dir, "agents"), ".md", agent, agentsDoc),
		}
	})...)
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

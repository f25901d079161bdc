package windsurf

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// Windsurf's pages on rules (global_rules.md, .windsurf/rules) and
// workflows, its slash commands.
const (
	rulesDoc     = "https://docs.windsurf.com/windsurf/cascade/memories"
	workflowsDoc = "https://docs.windsurf.com/windsurf/cascade/workflows"
)

// places lists the global rules file and global workflows in
// ~/.codeium/windsurf, and each project's .windsurf/rules and
// .windsurf/workflows. Windsurf has no subagents.
func places(env provider.Env) []provider.Place {
	return placeTable.Places(env, filepath.Join(env.Home, ".codeium", "windsurf"))
}

var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"memories/global_rules.md"}, Format: instr.Root{}, Source: rulesDoc},
		{Kind: instruction.Command, Dir: "global_workflows", Ext: ".md", Format: workflow, Source: workflowsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Dir: ".windsurf/rules", Ext: ".md", Format: rule, Source: rulesDoc},
		{Kind: instruction.Command, Dir: ".windsurf/workflows", Ext: ".md", Format: workflow, Source: workflowsDoc},
	},
}

// rule is a workspace rule: trigger always_on, or glob with its globs (one
// comma-separated string), and a description.
var rule = instr.TriggerRule(tool, false)

// workflow is a workflow file: a description in the header. Windsurf has
// no placeholder for what follows the command.
var workflow = instr.DescribedCommand(tool, nil)

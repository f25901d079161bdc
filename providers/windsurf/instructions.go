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
	dir := filepath.Join(env.Home, ".codeium", "windsurf")
	out := []provider.Place{
		instr.Shared(tool, instruction.Rule, provider.ScopeUser, "", instr.Root{}, rulesDoc, filepath.Join(dir, "memories", "global_rules.md")),
		instr.Folder(tool, instruction.Command, provider.ScopeUser, "", filepath.Join(dir, "global_workflows"), ".md", workflow, workflowsDoc),
	}
	return append(out, instr.PerProject(env, func(p string) []provider.Place {
		return []provider.Place{
			instr.Folder(tool, instruction.Rule, provider.ScopeProject, p, filepath.Join(p, ".windsurf", "rules"), ".md", rule, rulesDoc),
			instr.Folder(tool, instruction.Command, provider.ScopeProject, p, filepath.Join(p, ".windsurf", "workflows"), ".md", workflow, workflowsDoc),
		}
	})...)
}

// rule is a workspace rule: trigger always_on, or glob with its globs (one
// comma-separated string), and a description.
var rule = instr.TriggerRule(tool, false)

// workflow is a workflow file: a description in the header. Windsurf has
// no placeholder for what follows the command.
var workflow = instr.DescribedCommand(tool, nil)

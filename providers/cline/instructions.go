package cline

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// Cline's page on rules (.clinerules/, the global Rules folder, paths
// conditions), and, for workflows, the code that finds them: their page
// was withdrawn in May 2026 (workflows are deprecated for skills), but
// Cline still reads .clinerules/workflows and the global Workflows folder
// and offers each as a slash command.
const (
	rulesDoc     = "https://docs.cline.bot/customization/cline-rules"
	workflowsDoc = "https://github.com/cline/cline/blob/21cb8d2525bcedf1f4b6890b27a74a14fe7451e4/sdk/packages/shared/src/storage/paths.ts"
)

// places lists ~/Documents/Cline/Rules and ~/Documents/Cline/Workflows,
// and per project .clinerules and .clinerules/workflows: the folders
// Cline's documentation names, which the extension, the JetBrains plugin
// and the CLI all read. Cline has no agent files (its subagents are built
// in).
func places(env provider.Env) []provider.Place {
	return placeTable.Places(env, filepath.Join(env.Home, "Documents", "Cline"))
}

var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Rule, Dir: "Rules", Ext: ".md", Format: rule, Source: rulesDoc},
		{Kind: instruction.Command, Dir: "Workflows", Ext: ".md", Format: workflow, Source: workflowsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Dir: ".clinerules", Ext: ".md", Format: rule, Source: rulesDoc},
		{Kind: instruction.Command, Dir: ".clinerules/workflows", Ext: ".md", Format: workflow, Source: workflowsDoc},
	},
}

// rule is a rule file: plain Markdown, with a paths header (a list of
// globs) for a rule that applies to some files only. Cline reads no other
// header field.
var rule = instr.Markdown{
	Tool: tool, Kind: instruction.Rule,
	Header: func(in instruction.Instruction, h *instruction.Header) []string {
		h.Add("paths", in.Globs)
		return nil
	},
	Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
		return instr.List(fm, "paths", &in.Globs)
	},
}

// workflow is a workflow file, invoked as /NAME.md: plain Markdown. Cline
// appends what follows the command to it and has no placeholder.
var workflow = instr.Markdown{Tool: tool, Kind: instruction.Command}

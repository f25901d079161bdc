package zed

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
)

// Zed's page on instructions: personal AGENTS.md and project files.
const instructionsDoc = "https://zed.dev/docs/ai/instructions"

// places lists the personal AGENTS.md in Zed's config folder and, per
// project, the first that exists of the files Zed reads a project's rules
// from, in its order (.rules when none does): Zed reads that one only, so
// a block written anywhere else would be a file Zed does not read. Zed's
// slash commands and agents are extensions, not files.
func places(env provider.Env) []provider.Place {
	return placeTable.Places(env, filepath.Join(jsontool.ConfigHome(env), "zed"))
}

var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"AGENTS.md"}, Format: instr.Root{}, Source: instructionsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Files: []string{".rules", ".cursorrules", ".windsurfrules", ".clinerules",
			".github/copilot-instructions.md", "AGENT.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md"}, Format: instr.Root{}, Source: instructionsDoc},
	},
}

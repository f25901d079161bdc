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

// projectFiles are the files Zed reads a project's rules from, in its
// order: it reads the first that exists, and only that one.
var projectFiles = []string{".rules", ".cursorrules", ".windsurfrules", ".clinerules",
	filepath.Join(".github", "copilot-instructions.md"), "AGENT.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md"}

// places lists the personal AGENTS.md in Zed's config folder and, per
// project, the first of projectFiles that exists (.rules when none does):
// a block written anywhere else would be a file Zed does not read. Zed's
// slash commands and agents are extensions, not files.
func places(env provider.Env) []provider.Place {
	out := []provider.Place{
		instr.Shared(tool, instruction.Rule, provider.ScopeUser, "", instr.Root{}, instructionsDoc, filepath.Join(jsontool.ConfigHome(env), "zed", "AGENTS.md")),
	}
	return append(out, instr.PerProject(env, func(p string) []provider.Place {
		files := make([]string, len(projectFiles))
		for i, f := range projectFiles {
			files[i] = filepath.Join(p, f)
		}
		return []provider.Place{instr.Shared(tool, instruction.Rule, provider.ScopeProject, p, instr.Root{}, instructionsDoc, files...)}
	})...)
}

package amp

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// Amp's page on AGENTS.md: the project's (AGENT.md and CLAUDE.md when it
// is missing) and the global ~/.config/amp/AGENTS.md.
const agentsMdDoc = "https://ampcode.com/docs/customize/agents-md"

// projectFiles are the files Amp reads a project's rules from, in its
// order: AGENTS.md, and the first fallback that exists when it does not.
var projectFiles = []string{"AGENTS.md", "AGENT.md", "CLAUDE.md"}

// places lists ~/.config/amp/AGENTS.md and each project's AGENTS.md (or
// the fallback Amp reads). Amp has no command or agent files: its custom
// commands became skills, and its custom agents live in plugin
// repositories.
func places(env provider.Env) []provider.Place {
	out := []provider.Place{
		instr.Shared(tool, instruction.Rule, provider.ScopeUser, "", instr.Root{}, agentsMdDoc, filepath.Join(env.Home, ".config", "amp", "AGENTS.md")),
	}
	return append(out, instr.PerProject(env, func(p string) []provider.Place {
		files := make([]string, len(projectFiles))
		for i, f := range projectFiles {
			files[i] = filepath.Join(p, f)
		}
		return []provider.Place{instr.Shared(tool, instruction.Rule, provider.ScopeProject, p, instr.Root{}, agentsMdDoc, files...)}
	})...)
}

package amp

import (
	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// Amp's page on AGENTS.md: the project's (AGENT.md and CLAUDE.md when it
// is missing) and the global ~/.config/amp/AGENTS.md.
const agentsMdDoc = "https://ampcode.com/docs/customize/agents-md"

// places lists ~/.config/amp/AGENTS.md and each project's AGENTS.md, or
// the first fallback Amp reads when it is missing: AGENT.md, CLAUDE.md.
// Amp has no command or agent files: its custom commands became skills,
// and its custom agents live in plugin repositories.
func places(env provider.Env) []provider.Place { return placeTable.Places(env, env.Home) }

var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Rule, Files: []string{".config/amp/AGENTS.md"}, Format: instr.Root{}, Source: agentsMdDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"AGENTS.md", "AGENT.md", "CLAUDE.md"}, Format: instr.Root{}, Source: agentsMdDoc},
	},
}

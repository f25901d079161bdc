package goose

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// goose's pages on hints (.goosehints, AGENTS.md) and custom agents
// (.agents/agents).
const (
	hintsDoc  = "https://goose-docs.ai/docs/guides/context-engineering/using-goosehints"
	agentsDoc = "https://goose-docs.ai/docs/guides/context-engineering/custom-agents"
)

// Instructions lists the global .goosehints in goose's config folder and
// ~/.agents/agents, and per project AGENTS.md (goose reads AGENTS.md and
// .goosehints by default; AGENTS.md is the file Codex, OpenCode and Amp
// read too, so one block serves them all) and .agents/agents (which
// Antigravity reads too). goose's slash commands are recipes mapped in
// config.yaml, not files chronicle writes.
func (p Provider) Instructions(env provider.Env) []provider.Place {
	return placeTable.Places(env, filepath.Dir(configFile(env, p.goos)))
}

var placeTable = instr.Table{
	Tool: Name,
	User: []instr.Row{
		{Kind: instruction.Rule, Files: []string{".goosehints"}, Format: instr.Root{}, Source: hintsDoc},
		{Kind: instruction.Agent, Dir: "~/.agents/agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"AGENTS.md"}, Format: instr.Root{}, Source: hintsDoc},
		{Kind: instruction.Agent, Dir: ".agents/agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
}

// agent is a custom agent file: name, description and model (goose also
// takes provider and avatar). goose has no tool allowlist, but Antigravity
// reads the same .agents/agents folder and has one: the file is rendered
// as Antigravity renders it, tools included, and the plan says goose
// ignores them.
var agent = instr.ListAgent(Name, "tools written but ignored by goose, whose agents have no tool allowlist (Antigravity, which reads the same .agents/agents folder, has one)")

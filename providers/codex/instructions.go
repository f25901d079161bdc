package codex

import (
	"bytes"
	"fmt"

	"github.com/BurntSushi/toml"
	gotoml "github.com/pelletier/go-toml/v2"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// Codex's pages on AGENTS.md, custom prompts and subagents.
const (
	agentsMdDoc = "https://developers.openai.com/codex/guides/agents-md"
	promptsDoc  = "https://developers.openai.com/codex/custom-prompts"
	agentsDoc   = "https://developers.openai.com/codex/subagents"
)

// Instructions lists AGENTS.md, the prompts folder (user level only: Codex
// reads custom prompts from $CODEX_HOME/prompts alone) and the agents
// folder (TOML) in $CODEX_HOME and in each project.
func (Provider) Instructions(env provider.Env) []provider.Place {
	return placeTable.Places(env, codexHome(env))
}

var placeTable = instr.Table{
	Tool: Name,
	User: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"AGENTS.md"}, Format: instr.Root{}, Source: agentsMdDoc},
		{Kind: instruction.Command, Dir: "prompts", Ext: ".md", Format: prompt, Source: promptsDoc},
		{Kind: instruction.Agent, Dir: "agents", Ext: ".toml", Format: agent{}, Source: agentsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"AGENTS.md"}, Format: instr.Root{}, Source: agentsMdDoc},
		{Kind: instruction.Agent, Dir: ".codex/agents", Ext: ".toml", Format: agent{}, Source: agentsDoc},
	},
}

// prompt is a custom prompt: description and argument-hint in the header;
// $ARGUMENTS and $1 … $9 as Claude Code spells them.
var prompt = instr.Markdown{
	Tool: Name, Kind: instruction.Command, Placeholders: instr.Verbatim,
	Header: func(in instruction.Instruction, h *instruction.Header) []string {
		h.Add("description", in.Description)
		h.Add("argument-hint", in.ArgumentHint)
		return nil
	},
	Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
		return instr.Strings(fm, map[string]*string{"description": &in.Description, "argument-hint": &in.ArgumentHint})
	},
}

// agent is a custom agent file: TOML with name, description, model and the
// instructions as developer_instructions; Codex has no tool allowlist for
// agents.
type agent struct{}

type tomlAgent struct {
	Name                  string `toml:"name"`
	Description           string `toml:"description"`
	Model                 string `toml:"model,omitempty"`
	DeveloperInstructions string `toml:"developer_instructions,multiline"`
}

func (agent) Render(in instruction.Instruction) provider.Rendered {
	b, err := gotoml.Marshal(tomlAgent{Name: in.Name, Description: in.Description, Model: in.Model, DeveloperInstructions: in.Body})
	if err != nil {
		panic(fmt.Sprintf("codex agent %s: %v", in.Name, err)) // strings always encode
	}
	r := provider.Rendered{Content: b}
	if len(in.Tools) > 0 {
		r.Notes = []string{instr.ToolsDropped(Name, "")}
	}
	return r
}

func (agent) Read(name string, src []byte) (instruction.Instruction, error) {
	var a tomlAgent
	if _, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&a); err != nil {
		return instruction.Instruction{}, err
	}
	return instruction.Instruction{
		Kind: instruction.Agent, Name: name, Description: a.Description, Model: a.Model,
		Body: instruction.Normal(a.DeveloperInstructions),
	}, nil
}

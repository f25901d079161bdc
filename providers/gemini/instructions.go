package gemini

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/BurntSushi/toml"
	gotoml "github.com/pelletier/go-toml/v2"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// Gemini CLI's pages on GEMINI.md context files, custom commands and
// subagents.
const (
	contextDoc  = "https://geminicli.com/docs/cli/gemini-md"
	commandsDoc = "https://geminicli.com/docs/cli/custom-commands"
	agentsDoc   = "https://geminicli.com/docs/core/subagents"
)

// places lists GEMINI.md, commands (TOML) and agents in ~/.gemini and in
// each project.
func places(env provider.Env) []provider.Place {
	return placeTable.Places(env, filepath.Join(env.Home, ".gemini"))
}

var placeTable = instr.Table{
	Tool: tool,
	User: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"GEMINI.md"}, Format: instr.Root{}, Source: contextDoc},
		{Kind: instruction.Command, Dir: "commands", Ext: ".toml", Format: command{}, Source: commandsDoc},
		{Kind: instruction.Agent, Dir: "agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
	Project: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"GEMINI.md"}, Format: instr.Root{}, Source: contextDoc},
		{Kind: instruction.Command, Dir: ".gemini/commands", Ext: ".toml", Format: command{}, Source: commandsDoc},
		{Kind: instruction.Agent, Dir: ".gemini/agents", Ext: ".md", Format: agent, Source: agentsDoc},
	},
}

// placeholders is Gemini CLI's spelling: {{args}} for everything typed
// after the command; it has none for single arguments.
var placeholders = instruction.Table{instruction.Arguments: "{{args}}"}

// command is a custom command file: TOML with description and prompt.
type command struct{}

// tomlCommand is the TOML of a command file.
type tomlCommand struct {
	Description string `toml:"description,omitempty"`
	Prompt      string `toml:"prompt,multiline"`
}

func (command) Render(in instruction.Instruction) provider.Rendered {
	body, missing := placeholders.Translate(in.Body)
	if len(missing) > 0 {
		return provider.Rendered{Refused: instr.Refusal(tool, missing)}
	}
	b, err := gotoml.Marshal(tomlCommand{Description: in.Description, Prompt: body})
	if err != nil {
		// Two strings always encode.
		panic(fmt.Sprintf("gemini command %s: %v", in.Name, err))
	}
	return provider.Rendered{Content: b}
}

func (command) Read(name string, src []byte) (instruction.Instruction, error) {
	var c tomlCommand
	if _, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&c); err != nil {
		return instruction.Instruction{}, err
	}
	return instruction.Instruction{
		Kind: instruction.Command, Name: name, Description: c.Description,
		Body: instruction.Normal(placeholders.Reverse(c.Prompt)),
	}, nil
}

// agent is a subagent file: name, description, tools (a list) and model.
var agent = instr.Markdown{
	Tool: tool, Kind: instruction.Agent,
	Header: func(in instruction.Instruction, h *instruction.Header) []string {
		h.Add("name", in.Name)
		h.Add("description", in.Description)
		h.Add("tools", in.Tools)
		h.Add("model", in.Model)
		return nil
	},
	Parse: func(fm instruction.FrontMatter, in *instruction.Instruction) error {
		if err := instr.Strings(fm, map[string]*string{"description": &in.Description, "model": &in.Model}); err != nil {
			return err
		}
		return instr.List(fm, "tools", &in.Tools)
	},
}

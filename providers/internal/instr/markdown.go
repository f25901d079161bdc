package instr

import (
	"fmt"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// Markdown is the format of a Markdown file with a front matter header, the
// shape most tools give a rule, command or agent file. The tool chooses the
// fields.
type Markdown struct {
	Tool string
	Kind string
	// Header writes in's fields into the header, and returns a note for
	// each one the tool cannot hold. Nil: no header.
	Header func(in instruction.Instruction, h *instruction.Header) []string
	// Parse reads the header's fields back. Nil: the fields are dropped.
	Parse func(fm instruction.FrontMatter, in *instruction.Instruction) error
	// Placeholders spells a command's placeholders for the tool; one it
	// lacks makes the command refused (nil: the tool spells none).
	Placeholders instruction.Table
	// Lenient, when set, fixes a header the tool writes not quite as YAML
	// before it is read (Cursor's unquoted globs).
	Lenient func(src []byte) []byte
}

// Render returns in as the tool's file.
func (m Markdown) Render(in instruction.Instruction) provider.Rendered {
	body := in.Body
	if m.Kind == instruction.Command {
		var missing []string
		if body, missing = m.Placeholders.Translate(body); len(missing) > 0 {
			return provider.Rendered{Refused: Refusal(m.Tool, missing)}
		}
	}
	var h instruction.Header
	var notes []string
	if m.Header != nil {
		notes = m.Header(in, &h)
	}
	return provider.Rendered{Content: h.Markdown(body), Notes: notes}
}

// Read reads one of the tool's files back.
func (m Markdown) Read(name string, src []byte) (instruction.Instruction, error) {
	if m.Lenient != nil {
		src = m.Lenient(src)
	}
	fm, body, err := instruction.Split(src)
	if err != nil {
		return instruction.Instruction{}, err
	}
	in := instruction.Instruction{Kind: m.Kind, Name: name, Body: body}
	if m.Kind == instruction.Command {
		in.Body = m.Placeholders.Reverse(body)
	}
	if m.Parse != nil && fm != nil {
		if err := m.Parse(fm, &in); err != nil {
			return instruction.Instruction{}, err
		}
	}
	return in, nil
}

// Refusal says that a tool cannot spell some placeholders of a command.
func Refusal(tool string, missing []string) string {
	return fmt.Sprintf("%s has no way to spell %s in a command", tool, strings.Join(missing, ", "))
}

// ToolsDropped is the note for an agent's tools in a tool whose agents have
// no tool allowlist; why says what the tool has instead ("" for nothing).
func ToolsDropped(tool, why string) string {
	if why == "" {
		why = tool + " agents have no tool allowlist"
	}
	return "tools left out: " + why
}

// Verbatim spells every placeholder as Claude Code does.
var Verbatim = instruction.Table{
	instruction.Arguments: instruction.Arguments,
	"$1":                  "$1", "$2": "$2", "$3": "$3", "$4": "$4", "$5": "$5", "$6": "$6", "$7": "$7", "$8": "$8", "$9": "$9",
}

// Strings reads the string fields of a header into in: each key of fields
// names the field it sets.
func Strings(fm instruction.FrontMatter, fields map[string]*string) error {
	for key, dst := range fields {
		s, ok, err := fm.String(key)
		if err != nil {
			return err
		}
		if ok {
			*dst = s
		}
	}
	return nil
}

// List reads a list field of a header (a YAML list, or a comma-separated
// string).
func List(fm instruction.FrontMatter, key string, dst *[]string) error {
	l, ok, err := fm.List(key)
	if err != nil {
		return err
	}
	if ok {
		*dst = l
	}
	return nil
}

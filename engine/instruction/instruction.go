package instruction

import (
	"slices"
	"strings"
)

// The kinds of instruction.
const (
	Rule    = "rule"
	Command = "command"
	Agent   = "agent"
)

// Kinds lists the kinds in the order chronicle shows them.
var Kinds = []string{Rule, Command, Agent}

// MaxBody is the largest body an instruction may have: 1 MiB. Real rules,
// commands and agents are a few kilobytes; a tool reads each into every
// prompt.
const MaxBody = 1 << 20

// An Instruction is a rule, command or agent as declared, in no tool's
// format.
type Instruction struct {
	Kind string
	Name string
	// Body is the Markdown text, without front matter: LF line ends, no
	// leading blank lines, one final newline (Normal).
	Body        string
	Description string
	// Globs are the files a rule applies to; none: it always applies.
	Globs []string
	// ArgumentHint says what a command takes after its name.
	ArgumentHint string
	// Tools and Model are an agent's tool allowlist and model.
	Tools []string
	Model string
}

// Equal reports whether two instructions are the same.
func (in Instruction) Equal(o Instruction) bool {
	return in.Kind == o.Kind && in.Name == o.Name && in.Body == o.Body && in.Description == o.Description &&
		slices.Equal(in.Globs, o.Globs) && in.ArgumentHint == o.ArgumentHint &&
		slices.Equal(in.Tools, o.Tools) && in.Model == o.Model
}

// Normal returns body as an Instruction keeps it: CRLF line ends made LF, a
// byte order mark and leading blank lines dropped, trailing blank lines
// made one final newline (an empty body stays empty).
func Normal(body string) string {
	body = strings.TrimPrefix(body, "\ufeff")
	body = strings.ReplaceAll(body, "\r\n", "\n")
	body = strings.TrimLeft(body, "\n")
	body = strings.TrimRight(body, "\n")
	if body == "" {
		return ""
	}
	return body + "\n"
}

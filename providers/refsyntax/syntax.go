package refsyntax

import "slices"

// A Syntax says which reference forms one tool expands, and where.
type Syntax struct {
	// Tool names the tool in error messages.
	Tool string
	// Dollar is ${NAME} (Claude Code, Gemini CLI, Copilot CLI, Kiro, Amp,
	// goose).
	Dollar bool
	// DollarEnv is ${env:NAME} (Cursor, VS Code, Windsurf, Cline; Kiro reads
	// it too). A tool with both writes ${NAME}.
	DollarEnv bool
	// Bare is $NAME when it is the whole string (Gemini CLI, Copilot CLI).
	Bare bool
	// Brace is {env:NAME} and {file:PATH} (OpenCode).
	Brace bool
	// Simple is $NAME anywhere in the text, the name running to the first
	// character that cannot be in one (goose, besides ${NAME}).
	Simple bool
	// Fields, when set, are the only entry fields whose values the tool
	// expands (Copilot CLI and Kiro document env and headers); in any other
	// field its reference forms are literal text. Nil means every field.
	Fields []string

	// outside is the field In was given when it is not among Fields.
	outside string
}

// The syntaxes of the tools. Zed, Claude Desktop, Antigravity CLI, Devin
// CLI and Junie expand nothing.
var (
	Claude        = Syntax{Tool: "claude", Dollar: true}
	Gemini        = Syntax{Tool: "gemini", Dollar: true, Bare: true}
	Cursor        = Syntax{Tool: "cursor", DollarEnv: true}
	VSCode        = Syntax{Tool: "vscode", DollarEnv: true}
	Windsurf      = Syntax{Tool: "windsurf", DollarEnv: true}
	OpenCode      = Syntax{Tool: "opencode", Brace: true}
	Zed           = Syntax{Tool: "zed"}
	ClaudeDesktop = Syntax{Tool: "claude-desktop"}
	Antigravity   = Syntax{Tool: "antigravity"}
	Devin         = Syntax{Tool: "devin"}
	Copilot       = Syntax{Tool: "copilot", Dollar: true, Bare: true, Fields: []string{"env", "headers"}}
	Kiro          = Syntax{Tool: "kiro", Dollar: true, DollarEnv: true, Fields: []string{"env", "headers"}}

	// Cline's VS Code extension expands ${env:NAME} in every string of an
	// entry (docs/providers.md#cline).
	Cline = Syntax{Tool: "cline", DollarEnv: true}
	// Amp expands ${NAME} (docs/providers.md#amp).
	Amp = Syntax{Tool: "amp", Dollar: true}
	// Junie documents no reference syntax: a secret cannot be written there.
	Junie = Syntax{Tool: "junie"}
	// goose substitutes ${NAME} and $NAME in an extension's uri and headers,
	// but only names the extension itself lists in env_keys or envs: the
	// goose provider parses with ParseKnown and writes env_keys to match.
	Goose = Syntax{Tool: "goose", Dollar: true, Simple: true}
)

// In returns the syntax the tool applies to the values of one entry field
// (its top-level key: "env", "headers", "args", "url"): s itself, or, when
// s expands only some fields and field is not one of them, a syntax that
// expands nothing and says so when asked to write a reference.
func (s Syntax) In(field string) Syntax {
	if s.Fields == nil || slices.Contains(s.Fields, field) {
		return s
	}
	return Syntax{Tool: s.Tool, Fields: s.Fields, outside: field}
}

// expands reports whether the tool expands any reference at all.
func (s Syntax) expands() bool { return s.Dollar || s.DollarEnv || s.Bare || s.Brace || s.Simple }

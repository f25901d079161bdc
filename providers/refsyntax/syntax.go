package refsyntax

// A Syntax says which reference forms one tool expands.
type Syntax struct {
	// Tool names the tool in error messages.
	Tool string
	// Dollar is ${NAME} (Claude Code, Gemini CLI).
	Dollar bool
	// DollarEnv is ${env:NAME} (Cursor, VS Code, Windsurf).
	DollarEnv bool
	// Bare is $NAME when it is the whole string (Gemini CLI).
	Bare bool
	// Brace is {env:NAME} and {file:PATH} (OpenCode).
	Brace bool
	// Simple is $NAME anywhere in the text, the name running to the first
	// character that cannot be in one (Goose, besides ${NAME}).
	Simple bool
}

// The syntaxes of the tools. Zed, Claude Desktop and Junie expand nothing.
var (
	Claude        = Syntax{Tool: "claude", Dollar: true}
	Gemini        = Syntax{Tool: "gemini", Dollar: true, Bare: true}
	Cursor        = Syntax{Tool: "cursor", DollarEnv: true}
	VSCode        = Syntax{Tool: "vscode", DollarEnv: true}
	Windsurf      = Syntax{Tool: "windsurf", DollarEnv: true}
	OpenCode      = Syntax{Tool: "opencode", Brace: true}
	Zed           = Syntax{Tool: "zed"}
	ClaudeDesktop = Syntax{Tool: "claude-desktop"}

	// Cline's VS Code extension expands ${env:NAME} in every string of an
	// entry (docs/providers.md#cline).
	Cline = Syntax{Tool: "cline", DollarEnv: true}
	// Amp expands ${NAME} (docs/providers.md#amp).
	Amp = Syntax{Tool: "amp", Dollar: true}
	// Junie documents no reference syntax: a secret cannot be written there.
	Junie = Syntax{Tool: "junie"}
	// Goose substitutes ${NAME} and $NAME in an extension's uri and headers,
	// but only names the extension itself lists in env_keys or envs: the
	// goose provider parses with ParseKnown and writes env_keys to match.
	Goose = Syntax{Tool: "goose", Dollar: true, Simple: true}
)

// expands reports whether the tool expands any reference at all.
func (s Syntax) expands() bool { return s.Dollar || s.DollarEnv || s.Bare || s.Brace || s.Simple }

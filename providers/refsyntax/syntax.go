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
}

// The syntaxes of the JSON tools. Zed and Claude Desktop expand nothing.
var (
	Claude        = Syntax{Tool: "claude", Dollar: true}
	Gemini        = Syntax{Tool: "gemini", Dollar: true, Bare: true}
	Cursor        = Syntax{Tool: "cursor", DollarEnv: true}
	VSCode        = Syntax{Tool: "vscode", DollarEnv: true}
	Windsurf      = Syntax{Tool: "windsurf", DollarEnv: true}
	OpenCode      = Syntax{Tool: "opencode", Brace: true}
	Zed           = Syntax{Tool: "zed"}
	ClaudeDesktop = Syntax{Tool: "claude-desktop"}
)

// expands reports whether the tool expands any reference at all.
func (s Syntax) expands() bool { return s.Dollar || s.DollarEnv || s.Bare || s.Brace }

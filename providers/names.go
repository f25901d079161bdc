package providers

// Names returns the names of the built-in tools, in the order chronicle
// shows them. A link's tools must be among these or declared by a tool block.
func Names() []string {
	return []string{"claude", "claude-desktop", "cursor", "gemini", "codex", "vscode", "windsurf", "zed", "opencode",
		"antigravity", "devin", "copilot", "kiro",
		"cline", "goose", "amp", "junie",
		"agents"}
}

// A Product is a built-in tool with the name its vendor gives it.
type Product struct {
	Tool string // the name in a link: "copilot"
	Name string // the vendor's name: "Copilot CLI"
}

// Products lists every built-in tool (agents, a convention, is none) by
// its vendor's name, in the order chronicle --help names them: the one
// place those names are written.
func Products() []Product {
	return []Product{
		{"claude", "Claude Code"}, {"claude-desktop", "Claude Desktop"}, {"cursor", "Cursor"}, {"codex", "Codex"},
		{"gemini", "Gemini CLI"}, {"antigravity", "Antigravity CLI"}, {"vscode", "VS Code"}, {"windsurf", "Windsurf"},
		{"devin", "Devin"}, {"copilot", "Copilot CLI"}, {"kiro", "Kiro"}, {"zed", "Zed"}, {"opencode", "OpenCode"},
		{"cline", "Cline"}, {"goose", "Goose"}, {"amp", "Amp"}, {"junie", "Junie"},
	}
}

package providers

// Names returns the names of the built-in tools, in the order chronicle
// shows them. A link's tools must be among these or declared by a tool block.
func Names() []string {
	return []string{"claude", "claude-desktop", "cursor", "gemini", "codex", "vscode", "windsurf", "zed", "opencode",
		"antigravity", "devin", "copilot", "kiro",
		"cline", "goose", "amp", "junie",
		"agents"}
}

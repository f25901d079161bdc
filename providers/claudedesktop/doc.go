// Package claudedesktop is the provider for Claude Desktop ("claude-desktop"):
// claude_desktop_config.json (mcpServers) in ~/.config/Claude on Linux
// (honouring $XDG_CONFIG_HOME) and ~/Library/Application Support/Claude on
// macOS; user level only, no skills folder.
//
// Claude Desktop launches stdio servers only (remote ones go through a
// bridge such as mcp-remote, which is an ordinary stdio entry) and expands
// no references: every secret is an error of Render and Edit, and ${X} inside
// a value is literal text.
package claudedesktop

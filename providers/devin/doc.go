// Package devin is the provider for Cognition's Devin CLI (Devin Local):
// ~/.config/devin/mcp_config.json ($XDG_CONFIG_HOME/devin; %APPDATA%\devin
// on Windows), a project's .devin/mcp_config.json, and the git-ignored
// .devin/mcp_config.local.json beside it as the project's local scope, all
// keyed mcpServers; skills in ~/.config/devin/skills and .devin/skills.
//
// Devin 3000.3 (July 2026) moved the servers out of config.json into these
// dedicated files and migrates the old key away on startup: chronicle reads
// and writes only mcp_config*.json, never the mcpServers key of config.json
// (docs/decisions/0090-tool-paths-2026.md). Devin Desktop, the former
// Windsurf, keeps Windsurf's file and stays with the windsurf provider.
//
// A server is "command" (stdio) or "url" (streamable HTTP; "serverUrl", the
// Windsurf spelling, is read too and kept when the replaced entry uses it),
// with "transport": "sse" for the legacy transport. Devin keeps no enabled
// switch, allow or deny list, working directory or timeout in the entry: it
// denies MCP tools through permissions deny rules mcp__SERVER__TOOL in the
// matching config*.json, so an entry with a deny list is refused: a
// policy's deny list is written as those rules instead (Deny: each
// location's provider.Location.Deny, edited through providers.Lists;
// decision 0151). "disabledTools" is
// read and removed, never written. Devin expands no environment references
// (its docs keep personal keys in the git-ignored local file instead), so
// a secret cannot be written here: link the hub.
package devin

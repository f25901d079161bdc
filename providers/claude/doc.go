// Package claude is the provider for Claude Code: the user's servers in
// ~/.claude.json (top-level mcpServers), the per-project "local" servers in
// the same file (projects["<abs path>"].mcpServers), and a project's own
// .mcp.json; skills in ~/.claude/skills and <project>/.claude/skills.
// $CLAUDE_CONFIG_DIR, when set, replaces ~/.claude and holds .claude.json.
//
// Claude Code expands ${NAME} (and ${NAME:-default}, which chronicle keeps as
// literal text). Whether a server is enabled lives outside the entry:
// projects[p].disabledMcpServers turns off user and local servers in project
// p, and disabledMcpjsonServers (in projects[p] and in the project's
// .claude/settings.local.json or .claude/settings.json) turns off .mcp.json
// servers. A .mcp.json server not yet approved counts as enabled: Claude asks
// at start. User-level entries are reported enabled, since the switch is per
// project. An edit cannot write a disabled server.
package claude

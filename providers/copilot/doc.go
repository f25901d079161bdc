// Package copilot is the provider for GitHub Copilot CLI:
// ~/.copilot/mcp-config.json ($COPILOT_HOME when set) and a project's
// .github/mcp.json (mcpServers), skills in ~/.copilot/skills and a
// project's .github/skills.
//
// Copilot CLI also reads a project's .mcp.json, which is Claude Code's
// project file: the claude provider owns it, so one file is never two
// tools' (docs/decisions/0090-tool-paths-2026.md). VS Code's Copilot Chat
// keeps its servers in VS Code's mcp.json (the vscode provider).
//
// Every entry has a "type" — "stdio" (or "local", kept when the replaced
// entry has it), "http" or "sse" — and a "tools" allow list, ["*"] for all;
// stdio entries may set "cwd", and "timeout" is in milliseconds. There is
// no deny list. Copilot expands $NAME, ${NAME} and ${NAME:-default} in env
// and headers only: chronicle writes ${NAME} there and refuses a secret in
// args or url. A server is switched off by naming it in disabledMcpServers
// of ~/.copilot/settings.json, outside the entry: scan reads it, and an
// edit refuses a disabled entry.
package copilot

// Package antigravity is the provider for Google's Antigravity CLI (agy),
// the successor of Gemini CLI for individual users (June 2026):
// ~/.gemini/config/mcp_config.json and a project's .agents/mcp_config.json
// (mcpServers), skills in ~/.gemini/antigravity-cli/skills and a project's
// .agents/skills (shared with agents and codex), where a skill may also be
// a single NAME.md file. Plugins (~/.gemini/antigravity-cli/plugins/NAME,
// each with plugin.json) are a second source of servers (mcp_config.json)
// and skills (skills/): chronicle reads them, scan lists them, and nothing
// writes or links them — agy plugin installs and removes plugins.
//
// Since Antigravity 2.0 the user file is shared by the CLI and the
// Antigravity app, so an entry written there serves both; the app's other
// folders (~/.gemini/antigravity, ~/.gemini/config/skills) are not this
// provider's. Older CLI builds read ~/.gemini/antigravity-cli/mcp_config.json,
// which current builds ignore: chronicle neither reads nor writes it
// (docs/decisions/0090-tool-paths-2026.md).
//
// A remote server is "serverUrl" (streamable HTTP; it wins over "command"
// when both are set), or "url" with an optional "type", which chronicle
// writes for SSE and keeps using when the replaced entry has it. "disabled"
// and "disabledTools" are the entry's switch and deny list; there is no
// allow list, working directory or timeout. Antigravity expands no
// environment references in this file (google-antigravity/antigravity-cli
// issue 233, open), so a secret cannot be written here: link the hub.
package antigravity

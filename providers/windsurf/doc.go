// Package windsurf is the provider for Windsurf:
// ~/.codeium/windsurf/mcp_config.json (mcpServers), user level only, no
// skills folder.
//
// Windsurf expands ${env:NAME}. A remote server is "serverUrl" (or "url",
// which chronicle keeps using when the replaced entry has it); Windsurf picks
// streamable HTTP or SSE itself, so remote entries read as http and an sse
// entry is written as a serverUrl too. "disabled" and "disabledTools" are the
// entry's switch and deny list; Windsurf has no allow list.
package windsurf

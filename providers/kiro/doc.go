// Package kiro is the provider for Kiro, the IDE and the Kiro CLI, which
// share ~/.kiro/settings/mcp.json and a project's .kiro/settings/mcp.json
// (mcpServers, merged with the project's taking precedence); skills in
// ~/.kiro/skills and a project's .kiro/skills. Custom agents' own
// mcpServers (~/.kiro/agents/*.json) are not read.
//
// A server is "command" with "args" (both required) and "env", or "url"
// with "headers"; chronicle reads a "type" where the Kiro CLI put one and
// writes "type": "sse" for the legacy transport. "disabled" and
// "disabledTools" are the entry's switch and deny list; "autoApprove",
// "oauth" and the like are kept as they are. Kiro has no allow list, working
// directory or timeout in the entry.
//
// Kiro expands ${NAME} (and the Kiro CLI ${env:NAME}) in env and headers,
// but only for variables on its approved list (kiroAgent.mcpApprovedEnvVars;
// the IDE asks when it meets a new one): chronicle writes ${NAME} there and
// refuses a secret in args or url; the variable still has to be approved in
// Kiro once.
package kiro

// Package junie is the provider for JetBrains Junie (the Junie CLI and the
// Junie agent in JetBrains IDEs): ~/.junie/mcp/mcp.json and a project's
// .junie/mcp/mcp.json, under mcpServers. Skills are in ~/.junie/skills and
// a project's .junie/skills.
//
// An entry is {command, args, env} or {url, headers}, with "enabled"; Junie
// infers the transport from which fields are present and has no type
// field, so remote entries read as http and an sse service is written as a
// url too. "oauth" is kept as it is. Junie documents no syntax for
// references to the environment, so a secret cannot be written there: link
// the chronicle hub instead (docs/providers.md#junie).
package junie

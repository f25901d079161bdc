// Package amp is the provider for Amp (Sourcegraph's coding agent, its CLI
// and editor extensions): the user settings file ~/.config/amp/settings.json
// ($AMP_SETTINGS_FILE when set; on Windows %USERPROFILE%\.config\amp) and a
// project's .amp/settings.json, whose servers Amp runs only after
// `amp mcp approve`. Both are JSONC holding every Amp setting; the servers
// are under the flat key "amp.mcpServers" — one key with a dot in it, not a
// path.
//
// An entry is {command, args, env} or {url, headers}, with "disabled" and
// "includeTools" (glob patterns of the tools to expose: an allow list). Amp
// picks the remote transport itself, so remote entries read as http and an
// sse service is written as a url too. Amp expands ${NAME}
// (docs/providers.md#amp).
//
// Skills are in ~/.config/agents/skills (first in Amp's search order) and a
// project's .agents/skills, the folder of the agents convention.
package amp

// Package opencode is the provider for OpenCode: opencode.jsonc or
// opencode.json in ~/.config/opencode (honouring $XDG_CONFIG_HOME) and in a
// project's root, under "mcp"; skills in ~/.config/opencode/skills and
// <project>/.opencode/skills. When both a .jsonc and a .json file exist,
// both are listed, the .jsonc first (OpenCode reads both); when neither
// does, the .json is listed and an edit creates it.
//
// An entry is "type": "local" with command as an array [command, args...],
// "environment", and "cwd"; or "type": "remote" with url and headers.
// OpenCode negotiates streamable HTTP or SSE itself, so remote entries read
// as http and an sse entry is written as remote too. "enabled" is the
// entry's switch and "timeout" is in milliseconds. OpenCode expands
// {env:NAME} and {file:PATH}, the only tool here with file references.
package opencode

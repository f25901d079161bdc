// Package vscode is the provider for VS Code: the user profile's mcp.json
// (~/.config/Code/User on Linux, honouring $XDG_CONFIG_HOME;
// ~/Library/Application Support/Code/User on macOS) and a project's
// .vscode/mcp.json. Servers are under "servers" beside "inputs"; the files
// are JSONC, so comments and trailing commas survive every write.
//
// VS Code expands ${env:NAME}; ${input:id}, ${workspaceFolder} and the like
// are literal to chronicle. Every entry chronicle writes has "type". VS Code
// has no skills folder and keeps no enabled switch in the file: an edit refuses
// a disabled entry.
package vscode

// Package cursor is the provider for Cursor: ~/.cursor/mcp.json and a
// project's .cursor/mcp.json (mcpServers), skills in ~/.cursor/skills.
//
// Cursor expands ${env:NAME}; ${workspaceFolder}, ${userHome} and the like
// are literal to chronicle. A remote server is a url, with "type": "sse" for
// the legacy transport and an optional "type": "http"; chronicle writes type
// for sse, and for other transports only when the replaced entry had one.
// Cursor keeps no enabled switch in the file: an edit refuses a disabled entry.
package cursor

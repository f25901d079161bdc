// Package gemini is the provider for Gemini CLI: ~/.gemini/settings.json and
// a project's .gemini/settings.json (mcpServers), skills in ~/.gemini/skills.
//
// A server is "command" (stdio, with cwd), "httpUrl" (streamable HTTP), or
// "url" (SSE, or HTTP with "type": "http" as newer CLIs write it). chronicle
// writes httpUrl for http unless the replaced entry uses url+type. Gemini
// expands $NAME (the whole string) and ${NAME}; chronicle writes ${NAME}.
// "timeout" is in milliseconds; includeTools and excludeTools are the allow
// and deny lists.
//
// Enabled is false for a server named in mcp.excluded (of the user settings
// or of the file read), missing from a non-empty mcp.allowed, or set
// {"enabled": false} in ~/.gemini/mcp-server-enablement.json. Those switches
// live outside the entry: an edit refuses a disabled entry.
package gemini

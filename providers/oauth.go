package providers

import "github.com/chronicle-dev/chronicle/engine/provider"

// OAuth is the one table of how each built-in tool logs in by itself to a
// remote server that wants OAuth (a service with an oauth block written
// straight into the tool's file, not through the hub): whether it logs in
// on its own on a 401, and the fields of its entry for a pre-registered
// client. Only what a vendor's page says is here (docs/providers.md cites
// page and date); a tool missing from it (Claude Desktop, Devin, Copilot
// CLI, Cline, Goose, Amp, Junie, Antigravity CLI, agents, tool blocks) or a
// setting its row lacks makes the plan say to reach that service through
// the hub, and the entry is not written. No row has a field for a client
// secret: none is ever written into a tool's file.
var OAuth = provider.OAuthTable{
	// oauth.clientId, oauth.callbackPort, oauth.scopes (one
	// space-separated string); logs in on a 401 (/mcp).
	"claude": {Discovers: true, Key: "oauth", ClientID: "clientId", CallbackPort: "callbackPort", Scopes: "scopes", ScopesJoined: true},
	// auth.CLIENT_ID, auth.scopes; its redirect is fixed (no port field).
	"cursor": {Discovers: true, Key: "auth", ClientID: "CLIENT_ID", Scopes: "scopes"},
	// oauth.clientId, oauth.scopes; /mcp auth.
	"gemini": {Discovers: true, Key: "oauth", ClientID: "clientId", Scopes: "scopes"},
	// [mcp_servers.NAME.oauth] client_id; codex mcp login.
	"codex": {Discovers: true, Key: "oauth", ClientID: "client_id"},
	// oauth.clientId (oauth.scope exists but is not sent: anomalyco/opencode#28895).
	"opencode": {Discovers: true, Key: "oauth", ClientID: "clientId"},
	// Log in on their own; no field for a pre-registered client.
	"vscode":   {Discovers: true},
	"windsurf": {Discovers: true},
	"zed":      {Discovers: true},
	"kiro":     {Discovers: true},
}

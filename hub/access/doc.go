// Package access is who may use the hub over HTTP: a Guard holds the
// transport rules of SPEC §10 for the current settings (the Host names it
// accepts, the hub's tokens, whether loopback MCP clients need one) and
// checks every request against the Rule of its route (which token it
// requires, whether a browser may reach it cross-origin, whether its body
// must be JSON) before it reaches an MCP transport or the management API.
// The route table names a Rule per route; chronicle chronova --http uses
// the /mcp rule too (ProtectMCP). It imports only hub/wire.
package access

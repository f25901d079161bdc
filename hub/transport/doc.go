// Package transport serves the hub's MCP server to clients: Streamable
// HTTP in both eras (sessions, and 2026-07-28's stateless requests on the
// same path), the legacy HTTP+SSE pair, and stdio, with the rules of each
// endpoint in front of mcp-go (the scope a URL or header names, a
// session's binding to its endpoint, protocol revisions, batches, the
// session cap, one service's own names on /mcp/service/NAME) and the
// outbound filter on every response. The tasks requests mcp-go would answer
// from a store of its own, or not know (the 2026-07-28 extension's), it
// answers through the call path before mcp-go sees them, on every transport
// (task.go, taskanswer.go). Every HTTP route is a row of the one
// route table (routes.go), each behind its access.Rule. It reaches the
// hub only through the Core it is given: the MCP server, the sessions, the
// management API and the call path's say on each message.
package transport

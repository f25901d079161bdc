// Package hub is chronicle serve: one MCP endpoint that re-exposes the tools,
// prompts and resources of every declared service as <service>__<name>, with
// policies and per-project scoping, run from the state that apply writes.
//
// The hub speaks Streamable HTTP (stateful sessions, MCP 2025-03-26 through
// 2025-11-25) on a loopback address by default, or stdio for a client that
// spawns it. Its upstreams live in hub/upstream; this package owns the
// aggregated catalogue, the names, the policy and scope checks, the transport
// rules (Origin, Host, token, protocol version, body size), live reload, and
// the inspector (a ring buffer of recent messages and the /api endpoints).
package hub

// Package hub is chronicle serve: one MCP endpoint that re-exposes the tools,
// prompts and resources of every declared service as <service>__<name>, with
// policies and per-project scoping, run from the state that apply writes.
//
// The hub speaks every protocol revision from 2024-11-05 to 2026-07-28, over
// Streamable HTTP (sessions, and the stateless 2026-07-28 era on the same
// /mcp), HTTP+SSE (/sse, /message) and stdio. Its upstreams live in
// hub/upstream. This package owns the catalogue (one indexed structure, each
// upstream listed on its own under the hub's lifetime), the names, the policy
// and scope checks (by URL: /mcp?root=DIR; by header; by MCP roots), the
// router and its transport rules (Origin, Host, token, versions, batches,
// body size), the one call path every tools/call goes through, the
// pass-through of what flows back from upstreams (progress, log messages,
// resource updates, sampling, elicitation and roots requests), one
// clientSession per client session in one registry tied to mcp-go's session
// lifetime (clientsession.go, docs/decisions/0064), the outbound filter per
// session, masking of everything clients and people get, live
// reload, and the inspector (a ring buffer of recent messages and the /api
// endpoints). docs/decisions/0030 says why it is built on mcp-go's server.
//
// What an endpoint lists is one view of the catalogue per profile and scope
// (view.go): in search mode three meta-tools stand in for every tool
// (metatools.go), auto switches with hysteresis, profiles are served at
// /mcp/profile/NAME, and token costs are counted on demand and kept on the
// catalogue; the HTTP hub caches the catalogue with its costs in
// ~/.chronicle/catalog.json (docs/decisions/0040).
package hub

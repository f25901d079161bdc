// Package chronova owns the Chronova bridge: a small MCP server that exposes
// four read-only tools over the Chronova API (get_developer_context,
// get_productivity_summary, get_ai_insights, get_recent_activity) with the
// same names and inputs as the public Chronova MCP server.
//
// The package holds the pieces the CLI and the hub share:
//
//   - Resolve finds the API key and URL (chronicle.hcl value, environment,
//     ~/.chronova.cfg, ~/.wakatime.cfg, default) and says where each came
//     from, never what the key is.
//   - Client calls the API with bearer auth, a timeout, and the error texts
//     of the reference server.
//   - AddTools registers the four tools on any mcp-go server (the hub uses it
//     for its built-in "chronova" service); NewServer builds a server with
//     only those tools.
//   - ServeStdio and ServeHTTP run the bridge alone, as `chronicle chronova`
//     does.
//
// The API key is a secret: it is sent only in the Authorization header and is
// never written to logs, errors or tool results.
package chronova

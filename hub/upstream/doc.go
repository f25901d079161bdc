// Package upstream owns the hub's connections to the MCP services it
// aggregates: one Upstream per service, kept in a Pool.
//
// A stdio upstream is a child process started on first need, in its own
// process group, with its stderr captured line by line into the hub's log; a
// child that exits is restarted with backoff on the next need and its
// catalog listed again. An http or sse upstream is a Streamable HTTP or SSE
// client. Every call is bounded by the service's timeout, so a hung or broken
// upstream costs its own callers an error and never the hub.
//
// Secret references in a Spec are resolved only when a child is launched or
// a remote service is connected; the resolved text stays in memory and is
// masked out of every logged line and returned error.
package upstream

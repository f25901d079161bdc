// Package rpc holds the JSON-RPC pieces the hub's upstream client puts
// together and takes apart beside mcp-go's client: requests of the hub's
// own (fresh ids, the 2026-07-28 method header, a timeout that pauses while
// the client answers the upstream), params with a member or
// _meta added, tools decoded with their schemas left raw, the errors an
// upstream answers with, and results stripped of what names an upstream's
// own handle. It holds no state but the request counter, and imports
// nothing of the hub's.
package rpc

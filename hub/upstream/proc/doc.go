// Package proc runs a stdio upstream's process: in a process group of its
// own (the whole group is ended with it; on Linux it dies with the hub),
// with a minimal environment (what the service declares, what inherit_env
// passes, and a few variables every program needs), its stdout handed to
// the MCP client line by line with anything that is not JSON-RPC taken out
// and remembered, its stderr to the hub's log, masked.
package proc

// Package wire reads the few top-level members of a JSON-RPC message the
// hub needs before mcp-go decodes it or after it encoded one (the id, the
// method, a tools/call's tool, a cancellation's request id), without
// decoding the rest, writes what the hub passes on as it came, on one line
// (OneLine, Encode), and reads and hands on a stdio client's lines
// (ReadLine, Feed). It is the lowest layer of the hub: it imports nothing
// of chronicle's.
package wire

// Package pipe is the hub's client transport to a stdio upstream: JSON-RPC
// lines over the child's pipes, in place of mcp-go's transport.NewIO
// (decision 0242), behind mcp-go's transport.Interface so that mcp-go's
// client still runs the handshake and the hub's requests go on as before.
//
// One goroutine reads the child's output. Each line is scanned once
// (hub/wire, without decoding it) and only what is needed is decoded: an
// answer's result is handed on as the bytes the upstream sent, its error
// decoded; a notification or a request of the upstream's is decoded into
// mcp-go's types for the client's handlers. mcp-go's transport decodes
// every line twice or three times, from a string copied twice.
package pipe

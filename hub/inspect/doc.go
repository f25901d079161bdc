// Package inspect is what people see of the hub's traffic: the inspector's
// last records of MCP messages (masked, long values cut down, sealed lazily
// on the first read) and the masking every message, log line and error goes
// through before a client or a person sees it (ForClient for MCP traffic,
// ForPerson and LogHandler for people). It sits below the call path and the
// transports, and imports only engine/mask and the JSON-RPC peek (hub/wire).
package inspect

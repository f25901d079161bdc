// Package hubtoken owns the hub's own token, ~/.chronicle/hub.token: the
// bearer token that the hub's management API and, unless hub {
// local_clients = "open" }, its MCP endpoints require from a loopback
// client when hub { token } is not set (docs/decisions/0065 and 0145).
//
// The hub makes it when it starts serving HTTP; apply makes it when it
// writes an HTTP hub entry that carries it. Both use Load, so the file is
// made one way: written whole under a temporary name and renamed into place
// only where nothing is yet, so that it never exists empty and two
// processes making it at once agree on one token.
//
// An HTTP hub entry holds the token as a reference to the file (Header),
// never in plain text, in the plan and the state; Inline puts the file's
// content in its place only in the bytes written to the tool's file, which
// needs the literal value.
package hubtoken

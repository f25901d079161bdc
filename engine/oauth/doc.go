// Package oauth logs chronicle in to remote MCP servers that want OAuth and
// keeps what the login gives: the client's registration with the
// authorization server and the tokens, one file per (issuer, resource) in
// ~/.chronicle/oauth/, 0600, replaced atomically through engine/fsys.
//
// It builds on mcp-go's client (transport.OAuthHandler: RFC 9728 and
// RFC 8414 discovery, dynamic registration, PKCE, RFC 8707 resource on
// every token request) and adds what a CLI and a hub sharing one machine
// need: a TokenStore on disk (Tokens) that refreshes under a file lock, so
// two processes never spend one refresh token; invalid_grant turning into
// "login required" instead of a retry; a registration dropped when the
// server names another issuer; the loopback callback with state and RFC
// 9207 iss checks (Login); revocation (Logout); and a report that never
// contacts a server (Statuses). Every token value read or written is
// registered with the process's masker first.
package oauth

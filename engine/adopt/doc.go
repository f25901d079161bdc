// Package adopt turns what a scan found into configuration: service (and
// policy) blocks for the tools' MCP entries and skill blocks for their
// importable skills, with secret-looking literals replaced by secret("env:…")
// references and a comment saying where each value lives today.
//
// Adopt only appends; it never edits a block that exists, and what is
// already declared is skipped, so running it twice adds nothing.
package adopt

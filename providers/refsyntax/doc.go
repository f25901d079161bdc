// Package refsyntax owns the secret reference syntaxes of the tools:
// reading a tool's string into a secret.Value (scan and adopt) and writing a
// secret.Value back in the tool's own syntax (SPEC §3, docs/providers.md).
// (goose's rule for the variables of an stdio extension, env_keys, is the
// goose package's.)
//
// Only references to the environment and, for OpenCode, to files exist in
// these tools. Everything else that looks like a variable — VS Code's
// ${workspaceFolder} and ${input:id}, Claude's ${X:-default} — is literal
// text to chronicle: it is kept byte for byte and written back unchanged.
// Some tools expand references only in some fields of an entry (Copilot CLI
// and Kiro document env and headers): Syntax.In gives the syntax of one
// field, so that a reference elsewhere is literal text when read and an
// error when written.
//
// None of these tools has an escape for its own reference syntax, so literal
// text that the tool would read as a reference (a literal "${TOKEN}" for
// Claude) cannot be written: Render returns an error rather than change the
// meaning of the value.
package refsyntax

// Package codex reads and writes OpenAI Codex's MCP servers: the
// [mcp_servers.<name>] tables of $CODEX_HOME/config.toml (default
// ~/.codex/config.toml) and of a project's .codex/config.toml, and knows
// Codex's skills folders (~/.agents/skills, shared with the agents
// convention, and the legacy ~/.codex/skills).
//
// Secrets follow Codex's own syntax (SPEC §3): an environment variable
// passed under its own name is env_vars = ["NAME"], a bearer token is
// bearer_token_env_var, and any other header whose whole value is a secret
// is env_http_headers. Codex has no syntax for a secret inside args or url,
// a renamed variable, or a file: reference; those are errors.
//
// An edit owns command, args, cwd, env, env_vars, url, bearer_token_env_var,
// http_headers, env_http_headers, enabled, enabled_tools, disabled_tools and
// tool_timeout_sec: it writes them from the entry and drops those the entry
// leaves empty. Any other key of an existing entry (startup_timeout_sec, for
// one) is kept on replace, after the owned keys, so a setting chronicle does
// not model is never lost. Such keys are read into Entry.Extra; the declared
// ones are written as given, after the owned keys, and those chronicle wrote
// before and no longer declares (Edit.Drop) go. Edits keep every other byte
// of the file and are made in memory, all of a file's in one pass; see
// package tomlfile for the layout rules. Servers written inline
// (mcp_servers = { … }) or as an array of tables are refused by an edit,
// naming the file and the entry.
package codex

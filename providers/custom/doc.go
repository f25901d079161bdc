// Package custom makes a provider from a tool block, so a user can manage an
// agent chronicle does not know built in:
//
//	tool "acme" {
//	  format      = "jsonc"
//	  config      = "~/.acme/settings.jsonc"
//	  servers_key = "mcp.servers"
//	  skills_dir  = "~/.acme/skills"
//	}
//
// JSON and JSONC files hold entries in the common shape (command, args, env
// for stdio; url, headers and an optional type for remote servers); TOML files
// hold them in Codex's shape. chronicle knows no secret reference syntax for
// such a tool, so a secret() cannot be written into its config: declare the
// service through the hub (link { hub = true }) instead.
package custom

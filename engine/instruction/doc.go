// Package instruction is the one description of the text chronicle gives the
// AI tools besides MCP servers and skills: rules (standing instructions),
// commands (slash commands) and agents (subagents). An Instruction is shared
// from the configuration to the providers, which render it in each tool's
// own format, and back (scan and adopt read a tool's files into one).
//
// It also owns the two conventions every format shares: the front matter
// of a Markdown source (a YAML block between --- lines, read with yaml.v3)
// and the placeholders of a command body ($ARGUMENTS, $1 … $9, Claude Code's
// spelling), which each tool translates with a table of its own.
package instruction

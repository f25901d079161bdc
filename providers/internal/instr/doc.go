// Package instr holds the instruction formats several providers share: the
// body of a block in a shared root file (Root), and a Markdown file with a
// front matter header whose fields each tool chooses (Markdown). A
// provider keeps its places of rules, commands and agents as data, one
// Table of Rows, which Table.Places expands for a machine. Formats a
// single tool uses (Gemini's TOML commands, Codex's TOML agents) live in
// that tool's package.
package instr

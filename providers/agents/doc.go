// Package agents knows the shared .agents/skills convention: a skills
// folder that several tools read (Codex among them), with no MCP
// configuration of its own.
package agents

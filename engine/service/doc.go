// Package service holds the one description of an MCP server that every part
// of chronicle shares: a Definition (how to start or reach the server) and a
// Service (a declared server with the settings chronicle keeps for it). The
// configuration decodes into it, the state records it, the providers read and
// write tool entries around its Definition, and the hub starts upstreams from
// it — the same value throughout, with no converters between copies.
package service

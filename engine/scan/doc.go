// Package scan reads what every tool has on this machine — MCP entries and
// skills folders — through the providers it is given, and classifies each
// item against the configuration (SPEC §5). A tool file that cannot be read
// is an error for that tool only; it is never taken as empty.
package scan

// Command chronicle declares MCP services, skills, links and policies for
// every AI coding tool on a machine, plans the difference against what the
// tools have, applies it without destroying anything it did not create, and
// serves one aggregating MCP hub from the result.
//
// This package wires the providers into the engine and renders results; each
// command lives in its own file.
package main

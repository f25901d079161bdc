// Package provider defines what the engine needs from a tool: where its MCP
// configuration files and skills folders are, its entries read into one
// normalized model, and writing or removing one named entry.
//
// Concrete providers live under providers/ and implement Provider; the engine
// only ever sees this interface, and cmd/chronicle wires the two together.
package provider

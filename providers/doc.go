// Package providers holds the explicit list of the tools chronicle knows.
// Each tool family has its own package below this one; this package wires
// them together for cmd/chronicle, and the engine never imports it.
package providers

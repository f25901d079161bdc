// Package toolfile is how the engine reads and writes the tools' own files.
//
// A View reads each file once per run through the filesystem seam, keeping
// its bytes, their hash and the provider's parse of them, so that every
// decision of a plan — which entries exist, what their hashes are, what an
// edit would produce — describes one byte sequence. A Transaction writes one
// file: every change for it is checked against what the plan saw, spliced
// in one go, verified, and installed by an atomic exchange that reveals a
// concurrent writer, whose version is then edited again (see transaction.go).
package toolfile

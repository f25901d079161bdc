// Package providertest drives a provider in tests the way the engine does:
// a tool file is read and parsed once through a toolfile.View over the real
// filesystem, entries come from the parsed document, and the bytes an Edit
// returns are installed through the filesystem seam (fsys.OS), which keeps
// a symlinked file a link and an existing file's mode.
package providertest

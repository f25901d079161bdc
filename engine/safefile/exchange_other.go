//go:build !linux && !darwin

package safefile

// exchange is atomic only on Linux and macOS; elsewhere callers fall back
// to renames.
func exchange(a, b string) error { return errUnsupported }

// renameNoReplace is atomic only on Linux and macOS.
func renameNoReplace(a, b string) error { return errUnsupported }

//go:build !linux

package safefile

import "errors"

// errUnsupported says the platform has no atomic exchange: callers fall
// back to renames and document the window.
var errUnsupported = errors.New("atomic exchange is not supported here")

// exchange is only atomic on Linux; elsewhere callers fall back to renames.
func exchange(a, b string) error { return errUnsupported }

// renameNoReplace is only atomic on Linux.
func renameNoReplace(a, b string) error { return errUnsupported }

package safefile

import "errors"

// errUnsupported says the platform has no atomic exchange (nor rename
// without replacing): callers fall back to renames and document the window.
// Linux and macOS have both (exchange_linux.go, exchange_darwin.go).
var errUnsupported = errors.New("atomic exchange is not supported here")

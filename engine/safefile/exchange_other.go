//go:build !linux

package safefile

import "errors"

// exchange is only atomic on Linux; elsewhere swap falls back to renames.
func exchange(a, b string) error { return errors.New("atomic exchange is not supported here") }

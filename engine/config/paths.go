package config

import (
	"path/filepath"
	"strings"
)

// ExpandPath turns a path written in the configuration into an absolute one:
// a leading ~ is the home directory, and a relative path is relative to base
// (the configuration directory).
func ExpandPath(home, base, p string) string {
	switch {
	case p == "~":
		return filepath.Clean(home)
	case strings.HasPrefix(p, "~/"):
		return filepath.Join(home, p[2:])
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// isRelativeInside reports whether p is a relative path that stays inside
// the folder it is relative to.
func isRelativeInside(p string) bool {
	if p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "~") {
		return false
	}
	c := filepath.Clean(p)
	return c != ".." && !strings.HasPrefix(c, "../")
}

package adopt

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/names"
)

// validName turns a tool's entry name into a chronicle name: lowercase,
// runs of other characters as one hyphen, at most 64 characters.
func validName(raw string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(raw) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
			continue
		}
		if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	name := strings.Trim(b.String(), "-")
	if len(name) > names.MaxLen {
		name = strings.Trim(name[:names.MaxLen], "-")
	}
	if name == "" {
		name = "service"
	}
	return name
}

// A nameSet hands out names that are not taken yet.
type nameSet map[string]bool

// take returns base, or base-2, base-3… when base is taken, and marks it taken.
func (n nameSet) take(base string) string {
	name := base
	for i := 2; n[name]; i++ {
		suffix := "-" + itoa(i)
		trimmed := base
		if len(trimmed)+len(suffix) > names.MaxLen {
			trimmed = strings.Trim(trimmed[:names.MaxLen-len(suffix)], "-")
		}
		name = trimmed + suffix
	}
	n[name] = true
	return name
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// envName makes an environment variable name from parts: upper case,
// other characters as underscores.
func envName(parts ...string) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('_')
		}
		for _, r := range strings.ToUpper(p) {
			if (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') || r == '_' {
				b.WriteRune(r)
			} else {
				b.WriteByte('_')
			}
		}
	}
	s := b.String()
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		s = "X_" + s
	}
	return s
}

package mask

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

// SecretFlag reports whether arg is a command-line flag whose value is a
// secret — --password, --token, --api-key, -auth-token — and returns the
// flag's name and the value written inline (--token=abc), if any. A flag
// that names where a secret is (--token-file, --password-env, --key-id)
// is not one.
func SecretFlag(arg string) (name, inline string, hasInline, ok bool) {
	if !strings.HasPrefix(arg, "-") {
		return "", "", false, false
	}
	name, inline, hasInline = strings.Cut(strings.TrimLeft(arg, "-"), "=")
	if name == "" || !secret.LooksSecret(name) {
		return "", "", false, false
	}
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	switch words[len(words)-1] {
	case "file", "path", "dir", "env", "var", "name", "url", "id", "type":
		return "", "", false, false
	}
	return name, inline, hasInline, true
}

// ArgKey returns the name that the argument after prev is a value of, for
// masking and refusing it like a value under that key: the flag's name when
// prev is a secret flag without an inline value, and "" otherwise.
func ArgKey(prev string) string {
	if name, _, inline, ok := SecretFlag(prev); ok && !inline {
		return name
	}
	return ""
}

// shownArg renders one argument of a list whose previous argument is prev.
func shownArg(prev string, v secret.Value) string {
	if lit, ok := v.Literal(); ok {
		if name, inline, has, ok := SecretFlag(lit); ok && has {
			return lit[:len(lit)-len(inline)] + Named(name, inline)
		}
	}
	return Shown(ArgKey(prev), v)
}

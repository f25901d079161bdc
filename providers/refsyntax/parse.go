package refsyntax

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

// Parse reads a string as the tool stores it into a Value: each reference
// the tool expands becomes a secret reference, everything else stays literal.
func (s Syntax) Parse(text string) secret.Value { return s.ParseKnown(text, nil) }

// ParseKnown is Parse for a tool that expands only the variables it knows
// (Goose: those an extension lists itself): a reference to an environment
// variable counts only when known(name) is true, and stays literal text
// otherwise. A nil known knows every name.
func (s Syntax) ParseKnown(text string, known func(name string) bool) secret.Value {
	if s.Bare && len(text) > 1 && text[0] == '$' && isEnvName(text[1:]) && (known == nil || known(text[1:])) {
		return secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: text[1:]})
	}
	var out []secret.Value
	lit := 0 // start of the pending literal text
	for i := 0; i < len(text); i++ {
		ref, n := s.refAt(text[i:])
		if n == 0 || (known != nil && ref.Kind == secret.KindEnv && !known(ref.Name)) {
			continue
		}
		out = append(out, secret.Literal(text[lit:i]), secret.FromRef(ref))
		i += n - 1
		lit = i + 1
	}
	out = append(out, secret.Literal(text[lit:]))
	return secret.Concat(out...)
}

// refAt returns the reference that starts text and its length, or n == 0.
func (s Syntax) refAt(text string) (ref secret.Ref, n int) {
	switch {
	case (s.Dollar || s.DollarEnv) && strings.HasPrefix(text, "${"):
		end := strings.IndexByte(text, '}')
		if end < 0 {
			return ref, 0
		}
		inner := text[2:end]
		if s.DollarEnv && strings.HasPrefix(inner, "env:") && isEnvName(inner[4:]) {
			return secret.Ref{Kind: secret.KindEnv, Name: inner[4:]}, end + 1
		}
		if s.Dollar && isEnvName(inner) {
			return secret.Ref{Kind: secret.KindEnv, Name: inner}, end + 1
		}
	case s.Brace && strings.HasPrefix(text, "{"):
		end := strings.IndexByte(text, '}')
		if end < 0 {
			return ref, 0
		}
		inner := text[1:end]
		if name, ok := strings.CutPrefix(inner, "env:"); ok && isEnvName(name) {
			return secret.Ref{Kind: secret.KindEnv, Name: name}, end + 1
		}
		if path, ok := strings.CutPrefix(inner, "file:"); ok && path != "" && !strings.ContainsRune(path, 0) {
			return secret.Ref{Kind: secret.KindFile, Name: path}, end + 1
		}
	}
	if s.Simple && len(text) > 1 && text[0] == '$' && nameStart(text[1]) {
		end := 2
		for end < len(text) && (nameStart(text[end]) || '0' <= text[end] && text[end] <= '9') {
			end++
		}
		return secret.Ref{Kind: secret.KindEnv, Name: text[1:end]}, end
	}
	return ref, 0
}

// nameStart reports whether c may begin an environment variable name.
func nameStart(c byte) bool { return c == '_' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' }

// isEnvName reports whether s is a valid environment variable name.
func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_', 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

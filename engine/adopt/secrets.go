package adopt

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/secret"
)

// A SecretNote tells the user which variable to export for a literal secret
// that adopt replaced, and where its value lives today. It never holds the
// value.
type SecretNote struct {
	Var   string // the environment variable to export
	File  string // the tool file that holds the value now
	Place string // where in that file, e.g. mcpServers.github.env.TOKEN
}

// A secretizer replaces secret-looking literals of one entry with references.
type secretizer struct {
	file  string
	place string // the entry's place in its file
	notes []SecretNote
}

// value returns v with a secret-looking literal replaced by a reference to
// variable varName. Values that already hold references, or that nothing
// about looks secret, are returned unchanged. "Bearer <token>" keeps its
// "Bearer " prefix.
func (s *secretizer) value(key string, v secret.Value, varName, where string) secret.Value {
	lit, ok := v.Literal()
	if !ok || lit == "" {
		return v
	}
	if key == "url" {
		if u, ok := s.url(lit, varName, where); ok {
			return u
		}
	}
	if mask.Named(key, lit) == lit || toolInput.MatchString(lit) {
		return v
	}
	s.notes = append(s.notes, SecretNote{Var: varName, File: s.file, Place: s.place + "." + where})
	ref := secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: varName})
	if len(lit) > 7 && strings.EqualFold(lit[:7], "bearer ") {
		return secret.Concat(secret.Literal(lit[:7]), ref)
	}
	return ref
}

// url keeps a URL that carries credentials and replaces only them with
// references: https://user:${secret("env:X_PASSWORD")}@host/… and
// …?token=${secret("env:X_TOKEN")}. Reports false when it holds none.
func (s *secretizer) url(raw, varName, where string) (secret.Value, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return secret.Value{}, false
	}
	base := strings.TrimSuffix(varName, "_URL")
	var parts []secret.Value
	rest := raw
	found := false
	ref := func(name, place string) secret.Value {
		s.notes = append(s.notes, SecretNote{Var: name, File: s.file, Place: s.place + "." + where + " (" + place + ")"})
		found = true
		return secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: name})
	}
	if pw, ok := u.User.Password(); ok && u.User != nil && pw != "" {
		// scheme://user:PASSWORD@host…: the password is the text between
		// the first ':' after the user and the '@'.
		at := strings.Index(rest, "@")
		colon := strings.Index(rest[strings.Index(rest, "://")+3:], ":") + strings.Index(rest, "://") + 3
		if at > colon {
			parts = append(parts, secret.Literal(rest[:colon+1]), ref(base+"_PASSWORD", "the password"))
			rest = rest[at:]
		}
	}
	if q := strings.Index(rest, "?"); q >= 0 {
		query, frag := rest[q+1:], ""
		if h := strings.Index(query, "#"); h >= 0 {
			query, frag = query[:h], query[h:]
		}
		parts = append(parts, secret.Literal(rest[:q+1]))
		for i, p := range strings.Split(query, "&") {
			if i > 0 {
				parts = append(parts, secret.Literal("&"))
			}
			name, value, ok := strings.Cut(p, "=")
			n, _ := url.QueryUnescape(name)
			if ok && value != "" && (secret.LooksSecret(n) || strings.EqualFold(n, "key") || strings.EqualFold(n, "auth")) {
				parts = append(parts, secret.Literal(name+"="), ref(envName(base, n), "the query parameter "+n))
				continue
			}
			parts = append(parts, secret.Literal(p))
		}
		rest = frag
	}
	if !found {
		return secret.Value{}, false
	}
	parts = append(parts, secret.Literal(rest))
	return secret.Concat(parts...), true
}

// toolInput matches a value that holds a tool's own prompt for input (VS
// Code's ${input:id}): a reference the tool resolves, not a secret in plain
// text.
var toolInput = regexp.MustCompile(`\$\{input:[^}]+\}`)

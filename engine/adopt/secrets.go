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
	// Apart is the name Var was derived as when another tool holds a
	// different value under that name: Var is a name of its own.
	Apart string
}

// A secretizer replaces secret-looking literals of one entry with references.
type secretizer struct {
	file  string
	place string // the entry's place in its file
	notes []SecretNote
	// names gives each value its variable (nil: the derived names);
	// claims are the values replaced, under their derived names.
	names  *secretNames
	claims []secretClaim
}

// ref replaces the literal value, found at place, with a reference to the
// variable derived as varName, and notes it.
func (s *secretizer) ref(varName, value, place string) secret.Value {
	s.claims = append(s.claims, secretClaim{name: varName, value: value})
	name := s.names.name(varName, value)
	note := SecretNote{Var: name, File: s.file, Place: place}
	if name != varName {
		note.Apart = varName
	}
	s.notes = append(s.notes, note)
	return secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: name})
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
	if len(lit) > 7 && strings.EqualFold(lit[:7], "bearer ") {
		return secret.Concat(secret.Literal(lit[:7]), s.ref(varName, lit[7:], s.place+"."+where))
	}
	return s.ref(varName, lit, s.place+"."+where)
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
	ref := func(name, value, place string) secret.Value {
		found = true
		return s.ref(name, value, s.place+"."+where+" ("+place+")")
	}
	if pw, ok := u.User.Password(); ok && u.User != nil && pw != "" {
		// scheme://user:PASSWORD@host…: the password is the text between
		// the first ':' after the user and the '@'.
		at := strings.Index(rest, "@")
		colon := strings.Index(rest[strings.Index(rest, "://")+3:], ":") + strings.Index(rest, "://") + 3
		if at > colon {
			parts = append(parts, secret.Literal(rest[:colon+1]), ref(base+"_PASSWORD", rest[colon+1:at], "the password"))
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
				parts = append(parts, secret.Literal(name+"="), ref(envName(base, n), value, "the query parameter "+n))
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

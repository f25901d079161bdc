package adopt

import (
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
	if !ok || lit == "" || mask.Named(key, lit) == lit {
		return v
	}
	s.notes = append(s.notes, SecretNote{Var: varName, File: s.file, Place: s.place + "." + where})
	ref := secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: varName})
	if len(lit) > 7 && strings.EqualFold(lit[:7], "bearer ") {
		return secret.Concat(secret.Literal(lit[:7]), ref)
	}
	return ref
}

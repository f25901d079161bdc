package hubtoken

import (
	"maps"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// HeaderName is the header an HTTP hub entry carries the token in.
const HeaderName = "Authorization"

// Masked stands for the token wherever an entry is shown or hashed rather
// than written: in the plan's diff, in the hash the state records (so that
// a new token does not make a new hash), and in the dry run.
const Masked = "******"

// Ref is the reference to the token file at path.
func Ref(path string) secret.Ref { return secret.Ref{Kind: secret.KindFile, Name: path} }

// Header is the value of an HTTP hub entry's Authorization header: a
// reference to the token file at path, which the plan and the state keep
// as it is, and apply inlines.
func Header(path string) secret.Value {
	return secret.Concat(secret.Literal("Bearer "), secret.FromRef(Ref(path)))
}

// Refers reports whether d refers to the token file at path in a header.
func Refers(d service.Definition, path string) bool {
	for _, v := range d.Headers {
		for _, r := range v.Refs() {
			if r == Ref(path) {
				return true
			}
		}
	}
	return false
}

// Inline returns d with every reference to the token file at path, in its
// headers, replaced by tok: the literal text a tool's file must hold, since
// most tools cannot read a secret from a file. d itself is left as it is.
func Inline(d service.Definition, path, tok string) service.Definition {
	if !Refers(d, path) {
		return d
	}
	headers := maps.Clone(d.Headers)
	for k, v := range headers {
		var parts []secret.Value
		for _, p := range v.Parts() {
			switch {
			case p.Ref != nil && *p.Ref == Ref(path):
				parts = append(parts, secret.Literal(tok))
			case p.Ref != nil:
				parts = append(parts, secret.FromRef(*p.Ref))
			default:
				parts = append(parts, secret.Literal(p.Text))
			}
		}
		headers[k] = secret.Concat(parts...)
	}
	d.Headers = headers
	return d
}

// Carries reports whether the headers d holds send tok as the bearer token
// (d as read back from a tool's file: literal text).
func Carries(d service.Definition, tok string) bool {
	for k, v := range d.Headers {
		if !strings.EqualFold(k, HeaderName) {
			continue
		}
		lit, ok := v.Literal()
		return ok && lit == "Bearer "+tok
	}
	return false
}

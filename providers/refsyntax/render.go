package refsyntax

import (
	"fmt"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

// Render writes v in the tool's own syntax. It fails when the tool has no
// syntax for one of v's references (any secret for Zed and Claude Desktop,
// file: references everywhere but OpenCode), and when v's literal text would
// be read back by the tool as a reference: none of these tools can escape
// its reference syntax, so such text cannot be written faithfully.
func (s Syntax) Render(v secret.Value) (string, error) { return s.RenderKnown(v, nil) }

// RenderKnown is Render for a tool that expands only the variables known
// reports (see ParseKnown): literal text is refused only where the tool
// would read it as one of those.
func (s Syntax) RenderKnown(v secret.Value, known func(name string) bool) (string, error) {
	out, err := v.Render(func(t string) string { return t }, s.ref)
	if err != nil {
		return "", err
	}
	if !s.ParseKnown(out, known).Equal(v) {
		return "", fmt.Errorf("%s would read the literal text %q as a secret reference and has no way to escape it", s.Tool, out)
	}
	return out, nil
}

func (s Syntax) ref(r secret.Ref) (string, error) {
	if s.outside != "" {
		return "", fmt.Errorf("%s expands environment references only in %s, not in %s, so %s cannot be written there: move the secret into env or headers, or link the chronicle hub instead", s.Tool, strings.Join(s.Fields, " and "), s.outside, r.HCL())
	}
	if !s.expands() {
		return "", fmt.Errorf("%s has no syntax for secret references, so %s cannot be written there: link the chronicle hub instead, or set the value in %s by hand", s.Tool, r.HCL(), s.Tool)
	}
	switch r.Kind {
	case secret.KindEnv:
		switch {
		case s.Brace:
			return "{env:" + r.Name + "}", nil
		case s.Dollar || s.Bare:
			return "${" + r.Name + "}", nil
		default:
			return "${env:" + r.Name + "}", nil
		}
	case secret.KindFile:
		if !s.Brace {
			return "", fmt.Errorf("%s cannot read a secret from a file, so %s cannot be written there: use secret(\"env:NAME\")", s.Tool, r.HCL())
		}
		if strings.ContainsRune(r.Name, '}') {
			return "", fmt.Errorf("%s: the path in %s contains '}', which %s's {file:PATH} cannot hold", s.Tool, r.HCL(), s.Tool)
		}
		return "{file:" + r.Name + "}", nil
	}
	return "", fmt.Errorf("%s: unknown kind of secret reference %s", s.Tool, r.HCL())
}

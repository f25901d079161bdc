package secret

import (
	"fmt"
	"regexp"
	"strings"
)

// A Kind says where a reference's value lives.
type Kind string

// The kinds of reference chronicle understands.
const (
	KindEnv  Kind = "env"
	KindFile Kind = "file"
)

// A Ref names one secret: an environment variable or a file.
type Ref struct {
	Kind Kind
	// Name is the variable name for KindEnv and the path for KindFile.
	Name string
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ParseRef parses the argument of secret(): "env:NAME" or "file:PATH".
func ParseRef(s string) (Ref, error) {
	kind, name, ok := strings.Cut(s, ":")
	if !ok {
		return Ref{}, fmt.Errorf("secret reference %q has no kind: write \"env:NAME\" or \"file:PATH\"", s)
	}
	switch Kind(kind) {
	case KindEnv:
		if !envName.MatchString(name) {
			return Ref{}, fmt.Errorf("secret reference %q: %q is not a valid environment variable name", s, name)
		}
	case KindFile:
		if name == "" {
			return Ref{}, fmt.Errorf("secret reference %q: the file path is empty", s)
		}
		if strings.ContainsRune(name, 0) {
			return Ref{}, fmt.Errorf("secret reference: the file path contains a NUL byte")
		}
	default:
		return Ref{}, fmt.Errorf("secret reference %q has unknown kind %q: the kinds are \"env\" and \"file\"", s, kind)
	}
	return Ref{Kind: Kind(kind), Name: name}, nil
}

// String returns the reference as written inside secret(): "env:NAME".
func (r Ref) String() string { return string(r.Kind) + ":" + r.Name }

// HCL returns the reference as an HCL call: secret("env:NAME").
func (r Ref) HCL() string { return fmt.Sprintf("secret(%q)", r.String()) }

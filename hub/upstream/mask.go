package upstream

import (
	"cmp"
	"slices"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

// masked replaces a secret's content wherever it would leave the hub.
const masked = "***"

// minMasked is the shortest secret content worth masking: hiding every
// occurrence of a one- or two-letter string would garble the text without
// protecting anything.
const minMasked = 4

// A resolution resolves the references of one upstream's service.Service and remembers
// what they resolved to, so that the text can be masked later.
type resolution struct {
	resolver secret.Resolver
	secrets  []string
}

// value resolves v. Each reference is resolved on its own so that its content
// is masked even where it appears without the literal text around it.
func (rs *resolution) value(v secret.Value) (string, error) {
	return v.Render(func(s string) string { return s }, func(r secret.Ref) (string, error) {
		s, err := rs.resolver.Resolve(secret.FromRef(r))
		if err != nil {
			return "", err
		}
		if len(s) >= minMasked {
			rs.secrets = append(rs.secrets, s)
		}
		return s, nil
	})
}

// values resolves a map of values.
func (rs *resolution) values(m map[string]secret.Value) (map[string]string, error) {
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, err := rs.value(v)
		if err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

// mask returns the mask for everything resolved so far.
func (rs *resolution) mask() *mask {
	if len(rs.secrets) == 0 {
		return nil
	}
	// Longest first, so a secret containing another is hidden whole.
	secrets := slices.Clone(rs.secrets)
	slices.SortFunc(secrets, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	var pairs []string
	for _, s := range slices.Compact(secrets) {
		pairs = append(pairs, s, masked)
	}
	return &mask{strings.NewReplacer(pairs...)}
}

// A mask hides the resolved secrets of one upstream. A nil mask hides
// nothing.
type mask struct {
	replacer *strings.Replacer
}

func (m *mask) text(s string) string {
	if m == nil {
		return s
	}
	return m.replacer.Replace(s)
}

// err returns err with its text masked; errors.Is and errors.As still see
// the original.
func (m *mask) err(err error) error {
	if m == nil || err == nil {
		return err
	}
	return &maskedError{text: m.text(err.Error()), err: err}
}

type maskedError struct {
	text string
	err  error
}

func (e *maskedError) Error() string { return e.text }
func (e *maskedError) Unwrap() error { return e.err }

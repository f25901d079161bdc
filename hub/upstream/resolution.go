package upstream

import (
	"net/url"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// A resolution resolves the references of one upstream's service and
// registers every value they resolved to with the hub's Masker before the
// value is used, so that no output can carry it afterwards.
type resolution struct {
	resolver secret.Resolver
	masker   *mask.Masker
	// withheld names the variables of the hub's environment a child did
	// not get.
	withheld []string
}

// value resolves v. Each reference is registered on its own so that its
// content is masked even where it appears without the literal text around it.
func (rs *resolution) value(v secret.Value) (string, error) {
	return v.Render(func(s string) string { return s }, func(r secret.Ref) (string, error) {
		s, err := rs.resolver.Resolve(secret.FromRef(r))
		if err != nil {
			return "", err
		}
		rs.masker.Add(s)
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

// url resolves a service's URL and also registers the credentials it
// carries (userinfo password, secret-looking query parameters), which may be
// written literally in the URL rather than as references.
func (rs *resolution) url(v secret.Value) (string, error) {
	s, err := rs.value(v)
	if err != nil || s == "" {
		return s, err
	}
	if u, perr := url.Parse(s); perr == nil {
		if p, ok := u.User.Password(); ok {
			rs.masker.Add(p)
		}
		for k, vs := range u.Query() {
			if mask.SensitiveName(k) {
				rs.masker.Add(vs...)
			}
		}
	}
	return s, nil
}

// literalSecrets registers the literal values a service keeps under
// secret-looking names (an env var or header such as GITHUB_TOKEN written as
// plain text): they are as secret as resolved references.
func (rs *resolution) literalSecrets(d service.Definition) {
	for _, m := range []map[string]secret.Value{d.Env, d.Headers} {
		for k, v := range m {
			if lit, ok := v.Literal(); ok && mask.SensitiveName(k) && !mask.IsReference(lit) {
				rs.masker.Add(lit)
			}
		}
	}
}

// maskedError shows an error's text with the registered values replaced;
// errors.Is and errors.As still see the original.
type maskedError struct {
	text string
	err  error
}

func (e *maskedError) Error() string { return e.text }
func (e *maskedError) Unwrap() error { return e.err }

// maskErr returns err with every registered value replaced by mask.Bare:
// the error may reach an MCP client, where only registered values are
// masked (the hub's log and API mask the shapes too).
func maskErr(m *mask.Masker, err error) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	if masked := m.Literal(text); masked != text {
		return &maskedError{text: masked, err: err}
	}
	return err
}

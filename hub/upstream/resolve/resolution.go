package resolve

import (
	"net/url"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// A Resolution resolves the references of one upstream's service and
// registers every value they resolved to with the hub's Masker before the
// value is used, so that no output can carry it afterwards.
type Resolution struct {
	Resolver secret.Resolver
	Masker   *mask.Masker
	// Withheld names the variables of the hub's environment a child did
	// not get.
	Withheld []string
}

// Value resolves v. Each reference is registered on its own so that its
// content is masked even where it appears without the literal text around it.
func (rs *Resolution) Value(v secret.Value) (string, error) {
	return v.Render(func(s string) string { return s }, func(r secret.Ref) (string, error) {
		s, err := rs.Resolver.Resolve(secret.FromRef(r))
		if err != nil {
			return "", err
		}
		rs.Masker.Add(s)
		return s, nil
	})
}

// Values resolves a map of values.
func (rs *Resolution) Values(m map[string]secret.Value) (map[string]string, error) {
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, err := rs.Value(v)
		if err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

// URL resolves a service's URL and also registers the credentials it
// carries (userinfo password, secret-looking query parameters), which may be
// written literally in the URL rather than as references.
func (rs *Resolution) URL(v secret.Value) (string, error) {
	s, err := rs.Value(v)
	if err != nil || s == "" {
		return s, err
	}
	if u, perr := url.Parse(s); perr == nil {
		if p, ok := u.User.Password(); ok {
			rs.Masker.Add(p)
		}
		for k, vs := range u.Query() {
			if mask.SensitiveName(k) {
				rs.Masker.Add(vs...)
			}
		}
	}
	return s, nil
}

// LiteralSecrets registers the literal values a service keeps under
// secret-looking names (an env var or header such as GITHUB_TOKEN written as
// plain text): they are as secret as resolved references.
func (rs *Resolution) LiteralSecrets(d service.Definition) {
	for _, m := range []map[string]secret.Value{d.Env, d.Headers} {
		for k, v := range m {
			if lit, ok := v.Literal(); ok && mask.SensitiveName(k) && !mask.IsReference(lit) {
				rs.Masker.Add(lit)
			}
		}
	}
}

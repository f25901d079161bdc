package state

import (
	"net/url"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/secret"
)

// Scrubbed is the reference that replaces a plain-text secret found in an
// old state file. It names no real variable: the next plan shows the service
// as changed, and applying the configuration (which may hold only
// references) records the real reference.
var Scrubbed = secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "CHRONICLE_SCRUBBED_SECRET"})

// scrub replaces every plain-text secret of a state file: literal values
// under secret-looking keys or shaped like credentials, URL passwords and
// secret-looking query parameters, and literal hub tokens and API keys.
func scrub(f *fileV3) {
	for name, s := range f.Services {
		for i, a := range s.Args {
			s.Args[i] = scrubValue("", a)
		}
		for k, v := range s.Env {
			s.Env[k] = scrubValue(k, v)
		}
		for k, v := range s.Headers {
			s.Headers[k] = scrubValue(k, v)
		}
		s.URL = scrubValue("", s.URL)
		f.Services[name] = s
	}
	if f.Hub != nil && plainText(f.Hub.Token) {
		f.Hub.Token = Scrubbed
	}
	if f.Chronova != nil && plainText(f.Chronova.APIKey) {
		f.Chronova.APIKey = Scrubbed
	}
}

func plainText(v secret.Value) bool { return !v.IsZero() && !v.HasRefs() }

// scrubValue returns v, or Scrubbed when v holds a secret in plain text.
func scrubValue(key string, v secret.Value) secret.Value {
	lit, ok := v.Literal()
	if !ok || lit == "" {
		return v
	}
	if secret.LooksSecret(key) || strings.EqualFold(key, "Authorization") || mask.Value(lit) != lit || urlSecret(lit) {
		return Scrubbed
	}
	return v
}

func urlSecret(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return false
	}
	if _, ok := u.User.Password(); ok && u.User != nil {
		return true
	}
	for name := range u.Query() {
		if secret.LooksSecret(name) {
			return true
		}
	}
	return false
}

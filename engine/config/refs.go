package config

import (
	"github.com/chronicle-dev/chronicle/engine/secret"
)

// SecretRefs returns every secret reference the configuration holds:
// services' args, env, url and headers, the hub token, the Chronova key and
// the auth of git skills. A command resolves them, best effort, only to
// register their values for masking.
func (c *Config) SecretRefs() []secret.Ref {
	var out []secret.Ref
	add := func(vs ...secret.Value) {
		for _, v := range vs {
			out = append(out, v.Refs()...)
		}
	}
	for _, s := range c.Services {
		add(s.Args...)
		add(s.URL)
		for _, v := range s.Env {
			add(v)
		}
		for _, v := range s.Headers {
			add(v)
		}
	}
	if c.Hub != nil {
		add(c.Hub.Token)
	}
	if c.Chronova != nil {
		add(c.Chronova.APIKey)
	}
	for _, s := range c.Skills {
		add(s.Auth)
	}
	return out
}

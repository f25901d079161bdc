package provider

import (
	"maps"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

// SameDefinition reports whether two entries start or reach the same server:
// transport, command, args, env, cwd, url and headers. Secrets are compared
// by reference, never by value. Enabled and the tool lists are not part of a
// definition.
func SameDefinition(a, b Entry) bool {
	return a.Transport == b.Transport && a.Command == b.Command && a.Cwd == b.Cwd &&
		slices.EqualFunc(a.Args, b.Args, secret.Value.Equal) &&
		maps.EqualFunc(a.Env, b.Env, secret.Value.Equal) &&
		maps.EqualFunc(a.Headers, b.Headers, secret.Value.Equal) &&
		a.URL.Equal(b.URL)
}

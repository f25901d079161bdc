package upstream

import (
	"maps"
	"slices"
	"time"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// Transports an upstream can use.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
	TransportSSE   = "sse"
)

// A Spec says what to connect to for one service. Two Specs compare equal
// with Equal exactly when a running upstream can be kept as it is.
type Spec struct {
	Name      string
	Transport string // stdio, http or sse; empty means stdio
	Command   string
	Args      []secret.Value
	Env       map[string]secret.Value
	Cwd       string
	URL       secret.Value
	Headers   map[string]secret.Value
	Timeout   time.Duration // per call; zero means the pool's default
	Enabled   bool
}

// SpecFor returns the Spec of a service as recorded in the state.
func SpecFor(s state.Service) Spec {
	return Spec{
		Name:      s.Name,
		Transport: s.Transport,
		Command:   s.Command,
		Args:      slices.Clone(s.Args),
		Env:       maps.Clone(s.Env),
		Cwd:       s.Cwd,
		URL:       s.URL,
		Headers:   maps.Clone(s.Headers),
		Timeout:   s.Timeout,
		Enabled:   s.Enabled,
	}
}

// Equal reports whether two Specs describe the same upstream. Secret
// references are compared as references, never by what they resolve to.
func (s Spec) Equal(o Spec) bool {
	return s.Name == o.Name &&
		s.transport() == o.transport() &&
		s.Command == o.Command &&
		slices.EqualFunc(s.Args, o.Args, secret.Value.Equal) &&
		maps.EqualFunc(s.Env, o.Env, secret.Value.Equal) &&
		s.Cwd == o.Cwd &&
		s.URL.Equal(o.URL) &&
		maps.EqualFunc(s.Headers, o.Headers, secret.Value.Equal) &&
		s.Timeout == o.Timeout &&
		s.Enabled == o.Enabled
}

func (s Spec) transport() string {
	if s.Transport == "" {
		return TransportStdio
	}
	return s.Transport
}

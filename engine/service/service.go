package service

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

// Transports of a server.
const (
	Stdio     = "stdio"
	HTTP      = "http"
	SSE       = "sse"
	Extension = "extension" // Zed's extension-provided servers: reported, never written
)

// DefaultTimeout is a service's per-call timeout through the hub.
const DefaultTimeout = 60 * time.Second

// A Definition says how to start or reach one MCP server: a command for a
// stdio server, a URL for a remote one. Values may hold secret references,
// never their content.
type Definition struct {
	Transport string // Stdio, HTTP, SSE or Extension
	Command   string
	Args      []secret.Value
	Env       map[string]secret.Value
	Cwd       string
	URL       secret.Value
	Headers   map[string]secret.Value
}

// Equal reports whether two definitions start or reach the same server.
// Secrets are compared by reference, never by value.
func (d Definition) Equal(o Definition) bool {
	return d.Transport == o.Transport && d.Command == o.Command && d.Cwd == o.Cwd &&
		slices.EqualFunc(d.Args, o.Args, secret.Value.Equal) &&
		maps.EqualFunc(d.Env, o.Env, secret.Value.Equal) &&
		maps.EqualFunc(d.Headers, o.Headers, secret.Value.Equal) &&
		d.URL.Equal(o.URL)
}

// A Service is a declared MCP server with everything the hub needs to run
// it, as the configuration says and the state records.
type Service struct {
	Name string
	Definition
	Timeout     time.Duration // per call through the hub
	Project     string        // absolute path; empty for a global service
	Enabled     bool
	Description string
	// Origin is "tool:scope[:original-name]" as written by adopt, e.g.
	// "claude:user".
	Origin string
	// InheritEnv names variables of the hub's environment a stdio upstream
	// gets beyond the minimal set (inherit_env = ["NAME", …]); InheritAllEnv
	// passes the hub's whole environment (inherit_env = true).
	InheritEnv    []string
	InheritAllEnv bool
	// Sessions is how the hub runs the upstream for its clients: Shared
	// ("" or "shared", one upstream for all) or PerClient (one per client
	// session, so every request the upstream makes can be attributed).
	Sessions string
	// RefuseSampling and RefuseElicitation make the hub answer the
	// upstream's sampling/createMessage or elicitation/create requests with
	// an error instead of asking the client (allow_sampling = false,
	// allow_elicitation = false).
	RefuseSampling    bool
	RefuseElicitation bool
}

// How the hub runs a service's upstream for its clients.
const (
	Shared    = "shared"
	PerClient = "per-client"
)

// PerClientSessions reports whether the hub runs one upstream per client
// session for s.
func (s Service) PerClientSessions() bool { return s.Sessions == PerClient }

// Equal reports whether two services are the same in every respect.
func (s Service) Equal(o Service) bool {
	return s.Name == o.Name && s.Definition.Equal(o.Definition) && s.Timeout == o.Timeout &&
		s.Project == o.Project && s.Enabled == o.Enabled && s.Description == o.Description && s.Origin == o.Origin &&
		slices.Equal(s.InheritEnv, o.InheritEnv) && s.InheritAllEnv == o.InheritAllEnv &&
		s.PerClientSessions() == o.PerClientSessions() &&
		s.RefuseSampling == o.RefuseSampling && s.RefuseElicitation == o.RefuseElicitation
}

// OriginParts splits the origin into tool, scope and the tool's original
// entry name (empty when it equals the service name).
func (s Service) OriginParts() (tool, scope, original string) {
	parts := strings.SplitN(s.Origin, ":", 3)
	if len(parts) < 2 {
		return "", "", ""
	}
	if len(parts) == 3 {
		original = parts[2]
	}
	return parts[0], parts[1], original
}

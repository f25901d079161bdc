package service

import (
	"maps"
	"regexp"
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

// HasRefs reports whether d holds a secret reference anywhere: its url,
// args, env or headers.
func (d Definition) HasRefs() bool {
	if d.URL.HasRefs() || slices.ContainsFunc(d.Args, secret.Value.HasRefs) {
		return true
	}
	for _, m := range []map[string]secret.Value{d.Env, d.Headers} {
		for _, v := range m {
			if v.HasRefs() {
				return true
			}
		}
	}
	return false
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
	// OAuth is how chronicle logs in to a remote service that wants OAuth
	// (its oauth block); nil for a service that needs no login.
	OAuth *OAuth `json:",omitempty"`
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
		s.RefuseSampling == o.RefuseSampling && s.RefuseElicitation == o.RefuseElicitation &&
		s.OAuth.Equal(o.OAuth)
}

// SameUpstream reports whether o runs the same upstream as s: they differ
// at most in what the hub applies to a running upstream without restarting
// it: the per-call timeout, the description, the origin and the project
// (the hub's scoping). The refusals of sampling and elicitation are not
// among them: the hub declares its capabilities when it starts an upstream.
func (s Service) SameUpstream(o Service) bool {
	live := func(x Service) Service {
		x.Timeout, x.Description, x.Origin, x.Project = 0, "", "", ""
		return x
	}
	return live(s).Equal(live(o))
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

// Via returns the transport the definition's server is reached by: the one
// it names, else the one a tool leaves implicit (http for a URL, stdio
// otherwise). The hub dials by it, and Normal fills it in.
func (d Definition) Via() string {
	switch {
	case d.Transport != "":
		return d.Transport
	case !d.URL.IsZero():
		return HTTP
	}
	return Stdio
}

// Normal returns the definition in the form two spellings of one server
// share: the transport a tool leaves implicit filled in (Via), a URL
// without its trailing slash, and empty lists and maps as none.
func (d Definition) Normal() Definition {
	d.Transport = d.Via()
	if s, ok := d.URL.Literal(); ok && strings.HasSuffix(s, "/") && strings.Count(s, "/") > 3 {
		d.URL = secret.Literal(strings.TrimSuffix(s, "/"))
	}
	if len(d.Args) == 0 {
		d.Args = nil
	}
	if len(d.Env) == 0 {
		d.Env = nil
	}
	if len(d.Headers) == 0 {
		d.Headers = nil
	}
	return d
}

// Same reports whether two definitions describe one server, whatever their
// spelling (see Normal). Secrets are compared by reference.
func (d Definition) Same(o Definition) bool { return d.Normal().Equal(o.Normal()) }

// Differences names the fields in which two definitions differ, after
// normalising their spelling: "command", "args", "env.GITHUB_TOKEN",
// "headers.Authorization", "url", … in a stable order.
func (d Definition) Differences(o Definition) []string {
	a, b := d.Normal(), o.Normal()
	var out []string
	if a.Transport != b.Transport {
		out = append(out, "transport")
	}
	if a.Command != b.Command {
		out = append(out, "command")
	}
	if !slices.EqualFunc(a.Args, b.Args, secret.Value.Equal) {
		out = append(out, "args")
	}
	out = append(out, mapDifferences("env", a.Env, b.Env)...)
	if a.Cwd != b.Cwd {
		out = append(out, "cwd")
	}
	if !a.URL.Equal(b.URL) {
		out = append(out, "url")
	}
	return append(out, mapDifferences("headers", a.Headers, b.Headers)...)
}

func mapDifferences(name string, a, b map[string]secret.Value) []string {
	var out []string
	keys := slices.Sorted(maps.Keys(a))
	for _, k := range slices.Sorted(maps.Keys(b)) {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if x, ok := a[k]; !ok || !x.Equal(b[k]) {
			out = append(out, name+"."+k)
		}
	}
	return out
}

// Resolves reports whether actual is what d becomes once its secrets are
// resolved: the same server, where each value d spells with a reference is
// a literal in actual with the same text around the reference ("Bearer
// ${secret("env:T")}" resolves to "Bearer abc"). It is how a tool's entry
// holding a secret in plain text is recognised as the declared one.
func (d Definition) Resolves(actual Definition) bool {
	a, b := d.Normal(), actual.Normal()
	if a.Transport != b.Transport || a.Command != b.Command || a.Cwd != b.Cwd || len(a.Args) != len(b.Args) ||
		len(a.Env) != len(b.Env) || len(a.Headers) != len(b.Headers) || !resolves(a.URL, b.URL) {
		return false
	}
	for i := range a.Args {
		if !resolves(a.Args[i], b.Args[i]) {
			return false
		}
	}
	for k, v := range a.Env {
		if w, ok := b.Env[k]; !ok || !resolves(v, w) {
			return false
		}
	}
	for k, v := range a.Headers {
		if w, ok := b.Headers[k]; !ok || !resolves(v, w) {
			return false
		}
	}
	return true
}

// resolves reports whether the literal actual fits the template declared.
func resolves(declared, actual secret.Value) bool {
	if declared.Equal(actual) {
		return true
	}
	lit, ok := actual.Literal()
	if !ok || !declared.HasRefs() || strings.Contains(lit, "${input:") {
		// (VS Code's ${input:id} is the tool's own prompt, not a secret
		// in plain text.)
		return false
	}
	pattern := "^"
	for _, p := range declared.Parts() {
		if p.Ref != nil {
			pattern += "(.+)"
		} else {
			pattern += regexp.QuoteMeta(p.Text)
		}
	}
	re, err := regexp.Compile(pattern + "$")
	return err == nil && re.MatchString(lit)
}

package goose

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
	"github.com/chronicle-dev/chronicle/providers/yamlfile"
)

// goose's types of extension.
const (
	typeStdio = "stdio"
	typeHTTP  = "streamable_http"
	typeSSE   = "sse"
)

// mcpType reports whether an extension type is an MCP server chronicle
// reads and writes; goose's own kinds (builtin, platform, frontend,
// inline_python) and kinds it does not know are not.
func mcpType(t string) bool { return t == typeStdio || t == typeHTTP || t == typeSSE }

// storedType is the type of a stored extension, "" when it has none.
func storedType(v any) string {
	m, _ := v.(map[string]any)
	t, _ := m["type"].(string)
	return t
}

// readEntries turns the MCP servers among the extensions into entries. An
// extension goose could not load either (a wrong type, no type, no
// enabled) fails the whole file, naming its line: chronicle never guesses.
func readEntries(doc *yamlfile.Document) ([]provider.Entry, error) {
	stored, err := doc.Entries([]string{serversKey})
	if err != nil {
		return nil, err
	}
	entries := make([]provider.Entry, 0, len(stored))
	for _, s := range stored {
		e, ok, err := readEntry(s.Name, s.Value)
		if err != nil {
			return nil, &provider.ParseError{File: doc.Path, Line: s.Line, Err: fmt.Errorf("%s.%s: %w", serversKey, s.Name, err)}
		}
		if ok {
			entries = append(entries, e)
		}
	}
	return entries, nil
}

// readEntry reads one extension; ok is false for one that is not an MCP
// server.
func readEntry(name string, v any) (e provider.Entry, ok bool, err error) {
	m, isMap := v.(map[string]any)
	if !isMap {
		return e, false, fmt.Errorf("the extension is not a mapping")
	}
	f := &entryFields{m: m}
	typ := f.str("type")
	switch {
	case typ == "":
		return e, false, fmt.Errorf("the extension has no type (stdio, streamable_http, builtin, …)")
	case !mcpType(typ):
		return e, false, f.err
	}
	e = provider.Entry{Name: name}
	enabled, set := f.boolean("enabled")
	if !set && f.err == nil {
		return e, false, fmt.Errorf("enabled is missing (goose needs true or false)")
	}
	e.Enabled = enabled
	envs, keys := f.strMap("envs"), f.strings("env_keys")
	switch typ {
	case typeStdio:
		e.Transport = service.Stdio
		e.Command = f.str("cmd")
		for _, a := range f.strings("args") {
			e.Args = append(e.Args, secret.Literal(a))
		}
		e.Env = stdioEnv(envs, keys)
	default:
		e.Transport = service.HTTP
		if typ == typeSSE {
			e.Transport = service.SSE
		}
		read := substitution(envs, keys)
		e.URL = read(f.str("uri"))
		for k, h := range f.strMap("headers") {
			if e.Headers == nil {
				e.Headers = map[string]secret.Value{}
			}
			e.Headers[k] = read(h)
		}
	}
	if tools := f.strings("available_tools"); len(tools) > 0 {
		e.EnabledTools = tools
	}
	e.Timeout = time.Duration(f.seconds("timeout")) * time.Second
	if f.err != nil {
		return e, false, f.err
	}
	if e.Canonical, err = canonical(m); err != nil {
		return e, false, err
	}
	e.Extra = extra(m)
	return e, true, nil
}

// extra returns the fields of an extension chronicle does not model, nil
// when there are none. A field whose value means the same as its absence
// (goose's own empty description, bundled: null) is left out, and so is
// a value JSON has no form for (a YAML timestamp): neither can be declared
// nor written through extra, and an edit keeps them.
func extra(m map[string]any) provider.Extra {
	var out provider.Extra
	for k, v := range m {
		if owned(k) || isDefault(k, v) {
			continue
		}
		if n, ok := provider.Normal(v); ok {
			if out == nil {
				out = provider.Extra{}
			}
			out[k] = n
		}
	}
	return out
}

// stdioEnv is an stdio extension's environment: envs as they are, and each
// name in env_keys (not also in envs, which wins) as the secret goose reads
// for it — the environment variable of that name upper-cased, else its
// keyring.
func stdioEnv(envs map[string]string, keys []string) map[string]secret.Value {
	if len(envs) == 0 && len(keys) == 0 {
		return nil
	}
	env := make(map[string]secret.Value, len(envs)+len(keys))
	for _, k := range keys {
		if _, literal := envs[k]; !literal && k != "" {
			env[k] = secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: strings.ToUpper(k)})
		}
	}
	for k, v := range envs {
		env[k] = secret.Literal(v)
	}
	return env
}

// substitution reads a uri or header value as goose resolves it: ${NAME}
// and $NAME of a name in envs become that literal value, of a name in
// env_keys the secret behind it; any other reference stays text.
func substitution(envs map[string]string, keys []string) func(string) secret.Value {
	known := func(n string) bool { _, lit := envs[n]; return lit || slices.Contains(keys, n) }
	return func(text string) secret.Value {
		var parts []secret.Value
		for _, p := range refsyntax.Goose.ParseKnown(text, known).Parts() {
			switch {
			case p.Ref == nil:
				parts = append(parts, secret.Literal(p.Text))
			case hasKey(envs, p.Ref.Name):
				parts = append(parts, secret.Literal(envs[p.Ref.Name]))
			default:
				parts = append(parts, secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: strings.ToUpper(p.Ref.Name)}))
			}
		}
		return secret.Concat(parts...)
	}
}

func hasKey(m map[string]string, k string) bool { _, ok := m[k]; return ok }

package codex

import (
	"fmt"
	"maps"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/tomlfile"
)

// readEntries turns the server tables under keyPath into entries. A server
// that Codex could not load either (a wrong type, neither command nor url)
// fails the whole file, naming its line: chronicle never guesses.
func readEntries(doc *tomlfile.Document, keyPath []string) ([]provider.Entry, error) {
	tables, err := doc.Entries(keyPath)
	if err != nil {
		return nil, err
	}
	entries := make([]provider.Entry, 0, len(tables))
	for _, t := range tables {
		e, err := readEntry(t.Name, t.Table)
		if err != nil {
			return nil, &provider.ParseError{File: doc.Path, Line: t.Line, Err: fmt.Errorf("[%s]: %w", tomlfile.Dotted([]string{serversKey, t.Name}), err)}
		}
		entries = append(entries, e)
	}
	return entries, nil
}

func readEntry(name string, m map[string]any) (provider.Entry, error) {
	f := fields{m: m}
	e := provider.Entry{
		Name:          name,
		Definition:    service.Definition{Command: f.str("command"), Cwd: f.str("cwd")},
		Enabled:       f.boolean("enabled", true),
		EnabledTools:  f.strings("enabled_tools"),
		DisabledTools: f.strings("disabled_tools"),
		Timeout:       f.seconds("tool_timeout_sec"),
	}
	for _, a := range f.strings("args") {
		e.Args = append(e.Args, secret.Literal(a))
	}
	env, err := readEnv(&f)
	if err != nil {
		return e, err
	}
	e.Env = env
	url := f.str("url")
	e.URL = secret.Literal(url)
	if e.Headers, err = readHeaders(&f); err != nil {
		return e, err
	}
	if f.err != nil {
		return e, f.err
	}
	switch {
	case url != "":
		e.Transport = service.HTTP
	case e.Command != "":
		e.Transport = service.Stdio
	default:
		return e, fmt.Errorf("the server has neither command nor url")
	}
	if e.Canonical, err = canonical(m); err != nil {
		return e, err
	}
	e.Extra = extra(m)
	return e, nil
}

// extra returns the keys of a server table chronicle does not model, nil
// when there are none. A value JSON has no form for (a TOML date) is left
// out: it can be neither declared nor written through extra, and an edit
// keeps it (keepUnowned).
func extra(m map[string]any) provider.Extra {
	var out provider.Extra
	for k, v := range m {
		if _, owned := attributes[k]; owned {
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

// readEnv merges env_vars (passed through by name: secret references) and
// env (literal values, which win, as they do in Codex).
func readEnv(f *fields) (map[string]secret.Value, error) {
	names := f.strings("env_vars")
	literal := f.strMap("env")
	if names == nil && literal == nil {
		return nil, nil
	}
	env := make(map[string]secret.Value, len(names)+len(literal))
	for _, name := range names {
		ref, err := envRef("env_vars", name)
		if err != nil {
			return nil, err
		}
		env[name] = secret.FromRef(ref)
	}
	for _, k := range slices.Sorted(maps.Keys(literal)) {
		env[k] = secret.Literal(literal[k])
	}
	return env, nil
}

// readHeaders reads http_headers (literal), env_http_headers (a header from
// a variable) and bearer_token_env_var (Authorization: Bearer <variable>).
func readHeaders(f *fields) (map[string]secret.Value, error) {
	literal := f.strMap("http_headers")
	fromEnv := f.strMap("env_http_headers")
	bearer := f.str("bearer_token_env_var")
	if literal == nil && fromEnv == nil && bearer == "" {
		return nil, nil
	}
	headers := make(map[string]secret.Value, len(literal)+len(fromEnv)+1)
	for k, v := range literal {
		headers[k] = secret.Literal(v)
	}
	for k, name := range fromEnv {
		ref, err := envRef("env_http_headers."+k, name)
		if err != nil {
			return nil, err
		}
		headers[k] = secret.FromRef(ref)
	}
	if bearer != "" {
		ref, err := envRef("bearer_token_env_var", bearer)
		if err != nil {
			return nil, err
		}
		headers[authorization] = secret.Concat(secret.Literal(bearerPrefix), secret.FromRef(ref))
	}
	return headers, nil
}

func envRef(key, name string) (secret.Ref, error) {
	ref, err := secret.ParseRef("env:" + name)
	if err != nil {
		return secret.Ref{}, fmt.Errorf("%s: %w", key, err)
	}
	return ref, nil
}

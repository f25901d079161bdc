package codex

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/tomlfile"
)

// ownedKeys are the keys an edit writes, in the order it writes them. An
// existing entry's other keys are kept (see keepUnowned).
var ownedKeys = []string{
	"command", "args", "cwd", "env", "env_vars",
	"url", "bearer_token_env_var", "http_headers", "env_http_headers",
	"enabled", "enabled_tools", "disabled_tools", "tool_timeout_sec",
}

// attributes maps each owned key to the attribute of a service or target
// block that sets it.
var attributes = map[string]string{
	"command": "command", "args": "args", "cwd": "cwd", "env": "env", "env_vars": "env",
	"url": "url", "bearer_token_env_var": "headers", "http_headers": "headers", "env_http_headers": "headers",
	"enabled": "enabled", "enabled_tools": "enabled_tools", "disabled_tools": "disabled_tools", "tool_timeout_sec": "timeout",
}

// OwnedKeys returns the keys Codex's provider models, each with the
// attribute that sets it.
func (Provider) OwnedKeys() map[string]string { return maps.Clone(attributes) }

// table writes e in Codex's own keys and secret syntax.
func table(e provider.Entry) (tomlfile.Table, error) {
	t, err := fieldsOf(e)
	if err != nil {
		return nil, fmt.Errorf("[%s]: %w", tomlfile.Dotted([]string{serversKey, e.Name}), err)
	}
	return t, nil
}

func fieldsOf(e provider.Entry) (tomlfile.Table, error) {
	if err := checkTransport(e); err != nil {
		return nil, err
	}
	var t tomlfile.Table
	add := func(key string, v any) { t = append(t, tomlfile.Field{Key: key, Value: v}) }
	if e.Command != "" {
		add("command", e.Command)
	}
	args, err := literals("args", e.Args)
	if err != nil {
		return nil, err
	}
	if args != nil {
		add("args", args)
	}
	if e.Cwd != "" {
		add("cwd", e.Cwd)
	}
	env, err := renderEnv(e.Env)
	if err != nil {
		return nil, err
	}
	t = append(t, env...)
	if !e.URL.IsZero() {
		url, err := literal("url", e.URL)
		if err != nil {
			return nil, err
		}
		add("url", url)
	}
	headers, err := renderHeaders(e.Headers)
	if err != nil {
		return nil, err
	}
	t = append(t, headers...)
	if !e.Enabled {
		add("enabled", false)
	}
	if e.EnabledTools != nil {
		add("enabled_tools", slices.Clone(e.EnabledTools))
	}
	if e.DisabledTools != nil {
		add("disabled_tools", slices.Clone(e.DisabledTools))
	}
	if e.Timeout > 0 {
		add("tool_timeout_sec", seconds(e.Timeout))
	}
	if err := provider.CheckExtra(Name, attributes, e.Extra); err != nil {
		return nil, err
	}
	for _, k := range e.Extra.Keys() {
		if e.Extra[k] == nil {
			return nil, fmt.Errorf("extra key %q is null, which TOML cannot hold", k)
		}
		add(k, e.Extra[k])
	}
	return t, nil
}

func checkTransport(e provider.Entry) error {
	if e.Name == "" {
		return fmt.Errorf("the server has no name")
	}
	switch e.Transport {
	case service.Stdio, "":
		if e.Command == "" && e.URL.IsZero() {
			return fmt.Errorf("the server has neither command nor url")
		}
	case service.HTTP:
		if e.URL.IsZero() {
			return fmt.Errorf("an http server needs a url")
		}
	case service.SSE:
		return fmt.Errorf("codex speaks stdio and streamable HTTP, not SSE")
	default:
		return fmt.Errorf("codex cannot run a %q server", e.Transport)
	}
	if e.Transport == service.Stdio && e.Command == "" {
		return fmt.Errorf("a stdio server needs a command")
	}
	return nil
}

// seconds writes a duration as whole seconds when it is one, else as a
// fraction.
func seconds(d time.Duration) any {
	if d%time.Second == 0 {
		return int64(d / time.Second)
	}
	return d.Seconds()
}

// keepUnowned appends to t the keys of current that chronicle does not own,
// sorted, so that replacing an entry never drops a Codex setting chronicle
// does not model (startup_timeout_sec, for one). The keys t sets through
// Extra take their new value; those of drop (extra keys chronicle wrote
// before) go.
func keepUnowned(t tomlfile.Table, current map[string]any, drop []string) tomlfile.Table {
	set := map[string]bool{}
	for _, f := range t {
		set[f.Key] = true
	}
	var keys []string
	for k := range current {
		if !slices.Contains(ownedKeys, k) && !set[k] && !slices.Contains(drop, k) {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, strings.Compare)
	out := slices.Clone(t)
	for _, k := range keys {
		out = append(out, tomlfile.Field{Key: k, Value: current[k]})
	}
	return out
}

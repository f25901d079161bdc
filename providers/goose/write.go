package goose

import (
	"fmt"
	"reflect"
	"slices"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/yamlfile"
)

// A field is one field goose stores for an entry.
type field struct {
	key   string
	value any
}

// attributes maps the fields an edit writes (goose's provider models them)
// to the attribute of a service or target block that sets each; "name",
// goose's display name, is written from the entry's name. An owned field
// the new entry leaves out is removed, unless its stored value means the
// same as absence. Every other field of a stored extension is kept, except
// the extra fields chronicle wrote before and no longer declares
// (provider.Edit.Drop).
var attributes = map[string]string{
	"enabled": "enabled", "type": "transport", "name": "", "cmd": "command", "args": "args",
	"envs": "env", "env_keys": "env", "uri": "url", "headers": "headers",
	"available_tools": "enabled_tools", "timeout": "timeout",
}

func owned(key string) bool { _, ok := attributes[key]; return ok }

// fields returns what goose stores for e, in the order a new extension has
// them, in goose's own syntax for secrets.
func fields(e provider.Entry) ([]field, error) {
	switch {
	case e.Cwd != "":
		return nil, fmt.Errorf("goose cannot express a working directory (cwd) in its config")
	case e.DisabledTools != nil:
		return nil, fmt.Errorf("goose cannot express a tool deny list in its config (it has available_tools, an allow list, only)")
	}
	fs := []field{{"enabled", e.Enabled}}
	add := func(k string, v any) { fs = append(fs, field{k, v}) }
	switch e.Transport {
	case service.Stdio:
		cmd, args, envs, keys, err := stdioFields(e)
		if err != nil {
			return nil, err
		}
		add("type", typeStdio)
		add("name", e.Name)
		add("cmd", cmd)
		add("args", args) // goose requires args, empty or not
		if len(envs) > 0 {
			add("envs", envs)
		}
		if len(keys) > 0 {
			add("env_keys", keys)
		}
	case service.HTTP:
		uri, headers, keys, err := remoteFields(e)
		if err != nil {
			return nil, err
		}
		add("type", typeHTTP)
		add("name", e.Name)
		add("uri", uri)
		if len(headers) > 0 {
			add("headers", headers)
		}
		if len(keys) > 0 {
			add("env_keys", keys)
		}
	case service.SSE:
		return nil, fmt.Errorf("goose no longer runs SSE extensions (its config keeps them only to read old files): declare the service with its streamable HTTP url, or link the chronicle hub")
	default:
		return nil, fmt.Errorf("goose cannot run a %q server", e.Transport)
	}
	if e.EnabledTools != nil {
		add("available_tools", slices.Clone(e.EnabledTools))
	}
	if e.Timeout > 0 {
		add("timeout", int64((e.Timeout+time.Second-1)/time.Second))
	}
	if err := provider.CheckExtra(Name, attributes, e.Extra); err != nil {
		return nil, err
	}
	for _, k := range e.Extra.Keys() {
		add(k, e.Extra[k])
	}
	return fs, nil
}

// build returns the extension to store: fs merged into the stored
// extension's fields (nil for a new one). Stored fields keep their order,
// their key nodes (so the comment above each survives) and, where the value
// does not change, their value nodes (style and comments); owned fields the
// new entry leaves out go, unless their stored value means the same as
// absence; the fields of drop (extra fields chronicle wrote before) go;
// every other stored field stays; new fields are appended. The stored
// extension's name stays: it is goose's display name, whose key is the
// entry's.
func build(fs []field, stored *yamlfile.Entry, drop []string) (*yaml.Node, error) {
	m := yamlfile.NewMap()
	want := map[string]any{}
	for _, f := range fs {
		want[f.key] = f.value
	}
	done := map[string]bool{}
	if stored != nil {
		for _, pr := range yamlfile.Pairs(stored.Node) {
			k := pr.Key.Value
			old, err := yamlfile.Decode(pr.Value)
			if err != nil {
				return nil, err
			}
			v, ok := want[k]
			switch {
			case k == "name" && old != nil:
				m.AddNode(yamlfile.Copy(pr.Key), yamlfile.Copy(pr.Value))
			case ok:
				node, err := yamlfile.Encode(v)
				if err != nil {
					return nil, err
				}
				if same(old, node) {
					node = yamlfile.Copy(pr.Value)
				}
				m.AddNode(yamlfile.Copy(pr.Key), node)
			case owned(k) && isDefault(k, old), !owned(k) && !slices.Contains(drop, k):
				m.AddNode(yamlfile.Copy(pr.Key), yamlfile.Copy(pr.Value))
			}
			done[k] = true
		}
	}
	for _, f := range fs {
		if !done[f.key] {
			if err := m.Add(f.key, f.value); err != nil {
				return nil, err
			}
		}
	}
	return m.Node(), nil
}

// same reports whether a stored value decodes like the node to write.
func same(old any, node *yaml.Node) bool {
	v, err := yamlfile.Decode(node)
	return err == nil && reflect.DeepEqual(old, v)
}

package jsontool

import (
	"maps"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// DefaultAttributes maps the fields most tools share to the attribute of a
// service or target block that sets them; Tool.Attributes says the others.
var DefaultAttributes = map[string]string{
	"type": "transport", "command": "command", "args": "args", "env": "env", "cwd": "cwd",
	"url": "url", "headers": "headers", "timeout": "timeout", "enabled": "enabled",
}

// OwnedKeys returns the fields the tool models (Owned, Reads and
// Volatile), each with the attribute that sets it ("" for a volatile one).
func (t *Tool) OwnedKeys() map[string]string { return maps.Clone(t.modelled()) }

// modelled is OwnedKeys, worked out once: every entry read asks for it.
func (t *Tool) modelled() map[string]string {
	t.keys.Do(func() {
		t.keyMap = make(map[string]string, len(t.Owned)+len(t.Reads)+len(t.Volatile))
		for _, keys := range [][]string{t.Owned, t.Reads} {
			for _, k := range keys {
				attr, ok := t.Attributes[k]
				if !ok {
					attr = DefaultAttributes[k]
				}
				t.keyMap[k] = attr
			}
		}
		for _, k := range t.Volatile {
			if _, ok := t.keyMap[k]; !ok {
				t.keyMap[k] = ""
			}
		}
	})
	return t.keyMap
}

// extra returns the fields of a stored entry the tool does not model, nil
// when there are none.
func (t *Tool) extra(obj map[string]any) provider.Extra {
	owned := t.modelled()
	var out provider.Extra
	for k, v := range obj {
		if _, ok := owned[k]; ok {
			continue
		}
		n, ok := provider.Normal(v)
		if !ok {
			continue
		}
		if out == nil {
			out = provider.Extra{}
		}
		out[k] = n
	}
	return out
}

// addExtra appends e's extra fields to o, sorted by key, refusing a field
// the tool models.
func (t *Tool) addExtra(o *Object, e provider.Entry) error {
	if err := provider.CheckExtra(t.Name(), t.modelled(), e.Extra); err != nil {
		return err
	}
	for _, k := range e.Extra.Keys() {
		o.Add(k, e.Extra[k])
	}
	return nil
}

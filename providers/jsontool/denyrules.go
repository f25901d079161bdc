package jsontool

import (
	"fmt"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/jsonfile"
)

// DenyRules implements provider.DenyRuler: the strings of the list, after
// checking that every value on its key path is an object and the list a
// list, as AddString and RemoveString require.
func (t *Tool) DenyRules(d provider.DenyList, src []byte) ([]string, error) {
	doc, err := jsonfile.Parse(d.File, src)
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(d.KeyPath); i++ {
		if v, ok := doc.Lookup(d.KeyPath[:i]...); ok {
			if _, obj := v.(map[string]any); !obj {
				return nil, fmt.Errorf("%s: %s is not an object", d.File, strings.Join(d.KeyPath[:i], "."))
			}
		}
	}
	v, ok := doc.Lookup(d.KeyPath...)
	if !ok {
		return nil, nil
	}
	list, isList := v.([]any)
	if !isList {
		return nil, fmt.Errorf("%s: %s is not a list", d.File, strings.Join(d.KeyPath, "."))
	}
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// EditDenyRule implements provider.DenyRuler with jsonfile's AddString and
// RemoveString.
func (t *Tool) EditDenyRule(d provider.DenyList, src []byte, rule string, remove bool) ([]byte, error) {
	doc, err := jsonfile.Parse(d.File, src)
	if err != nil {
		return nil, err
	}
	if remove {
		return doc.RemoveString(d.KeyPath, rule)
	}
	return doc.AddString(d.KeyPath, rule)
}

package search

import (
	"encoding/json"
	"sort"
)

// maxSchemaDepth bounds the walk of a schema: parameters nested deeper say
// little about what the tool is for, and a recursive $defs must end.
const maxSchemaDepth = 4

// paramText returns the words a schema gives its parameters: each
// property's name and description, at the top level and in nested objects,
// arrays and $defs, in a stable order. An invalid schema gives none.
func paramText(schema json.RawMessage) (names, descriptions []string) {
	if len(schema) == 0 {
		return nil, nil
	}
	var root any
	if json.Unmarshal(schema, &root) != nil {
		return nil, nil
	}
	walkSchema(root, 0, &names, &descriptions)
	return names, descriptions
}

func walkSchema(node any, depth int, names, descriptions *[]string) {
	obj, ok := node.(map[string]any)
	if !ok || depth > maxSchemaDepth {
		return
	}
	if props, ok := obj["properties"].(map[string]any); ok {
		for _, name := range sortedKeys(props) {
			*names = append(*names, name)
			if p, ok := props[name].(map[string]any); ok {
				if d, ok := p["description"].(string); ok {
					*descriptions = append(*descriptions, d)
				}
			}
			walkSchema(props[name], depth+1, names, descriptions)
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		walkSchema(obj[key], depth+1, names, descriptions)
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		if list, ok := obj[key].([]any); ok {
			for _, sub := range list {
				walkSchema(sub, depth+1, names, descriptions)
			}
		}
	}
	for _, key := range []string{"$defs", "definitions"} {
		if defs, ok := obj[key].(map[string]any); ok {
			for _, name := range sortedKeys(defs) {
				walkSchema(defs[name], depth+1, names, descriptions)
			}
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

package yamlfile

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A Map builds the mapping an edit writes, field by field, from new values
// and from copies of the stored entry's fields (so that a kept field keeps
// its style and the comments attached to it).
type Map struct{ n *yaml.Node }

// NewMap returns an empty mapping.
func NewMap() *Map { return &Map{n: &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}} }

// Add appends key with v, a Go value (string, bool, number, list, map).
func (m *Map) Add(key string, v any) error {
	value, err := Encode(v)
	if err != nil {
		return err
	}
	m.AddNode(Key(key), value)
	return nil
}

// AddNode appends a key and a value node, such as Copy of stored ones.
func (m *Map) AddNode(key, value *yaml.Node) { m.n.Content = append(m.n.Content, key, value) }

// Node returns the mapping built.
func (m *Map) Node() *yaml.Node { return m.n }

// Key returns a new key node.
func Key(name string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name} }

// A Pair is one key and value of a mapping node.
type Pair struct{ Key, Value *yaml.Node }

// Pairs returns the members of a mapping node, in order.
func Pairs(n *yaml.Node) []Pair {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := make([]Pair, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, Pair{n.Content[i], n.Content[i+1]})
	}
	return out
}

// Copy returns a deep copy of a stored node for a new entry, without the
// comments the parser attached below it (foot comments): those may lie
// outside the span an edit replaces, where they stay, and would be written
// twice.
func Copy(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.FootComment = ""
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, child := range n.Content {
		c.Content[i] = Copy(child)
	}
	return &c
}

// Encode returns the node of a Go value.
func Encode(v any) (*yaml.Node, error) {
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return nil, err
	}
	return &n, nil
}

// Decode returns what a node decodes to.
func Decode(n *yaml.Node) (any, error) {
	var v any
	err := n.Decode(&v)
	return v, err
}

// Render returns a mapping as YAML text indented by two spaces, for showing
// an entry.
func Render(value *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(value); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// block renders "key: value" as lines of a map whose keys are indented by
// indent spaces, nested levels by step, each line ending in newline.
func block(key, value *yaml.Node, indent, step int, newline string) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(step)
	doc := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{key, value}}
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	pad := strings.Repeat(" ", indent)
	var out bytes.Buffer
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		body := strings.TrimSuffix(line, "\n")
		if body == "" {
			if line != "" {
				out.WriteString(newline)
			}
			continue
		}
		out.WriteString(pad)
		out.WriteString(body)
		if strings.HasSuffix(line, "\n") {
			out.WriteString(newline)
		}
	}
	return out.Bytes(), nil
}

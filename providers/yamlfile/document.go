package yamlfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// A Document is a YAML file as read: its bytes, their node tree and what
// they decode to. Nothing changes it after Parse.
type Document struct {
	Path string
	Data []byte         // nil for a file that does not exist
	Tree map[string]any // read only: shared with whoever reads the document
	root *yaml.Node     // the top-level mapping; nil for an empty document
	null *yaml.Node     // the top level when it is null, written out ("~", "&a")
}

// An Entry is one member of a map, as read.
type Entry struct {
	Name string
	// Value is what the entry decodes to (a map for a mapping).
	Value any
	// Node is the entry's value as parsed, for copying the parts an edit
	// keeps (NodeMap): read only.
	Node *yaml.Node
	// Line is the line of the entry's key.
	Line int
}

// Parse decodes data, which was read from path; nil data is a file that
// does not exist yet, an empty document that edits can create. The file
// must hold one document whose top level is a mapping (or nothing). A file
// that does not parse is a *provider.ParseError with the line of the
// problem.
func Parse(path string, data []byte) (*Document, error) {
	d := &Document{Path: path, Data: data, Tree: map[string]any{}}
	if len(data) == 0 {
		return d, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		return d, nil // comments only
	case err != nil:
		return nil, parseError(path, err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, &provider.ParseError{File: path, Line: next.Line,
			Err: errors.New("a second YAML document starts here; a configuration file holds one")}
	case !errors.Is(err, io.EOF):
		return nil, parseError(path, err)
	}
	if len(doc.Content) == 0 {
		return d, nil
	}
	root := doc.Content[0]
	if isNull(root) {
		if root.Value != "" || root.Anchor != "" || root.Style&yaml.TaggedStyle != 0 {
			d.null = root
		}
		return d, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, &provider.ParseError{File: path, Line: root.Line, Column: root.Column,
			Err: fmt.Errorf("the top level is %s, not a mapping", kindName(root))}
	}
	if err := root.Decode(&d.Tree); err != nil {
		return nil, parseError(path, err)
	}
	d.root = root
	return d, nil
}

// Entries returns the members of the map at keyPath, in file order. A
// document without that map, or with an empty one, has none.
func (d *Document) Entries(keyPath []string) ([]Entry, error) {
	m, err := d.lookup(keyPath)
	if err != nil || m == nil {
		return nil, err
	}
	m = resolve(m)
	if isNull(m) {
		return nil, nil
	}
	if m.Kind != yaml.MappingNode {
		return nil, d.errorAt(m, fmt.Errorf("%s is %s, not a mapping", dotted(keyPath), kindName(m)))
	}
	out := make([]Entry, 0, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, d.errorAt(k, fmt.Errorf("%s has a key that is %s, not a name", dotted(keyPath), kindName(k)))
		}
		var value any
		if err := v.Decode(&value); err != nil {
			return nil, parseError(d.Path, err)
		}
		out = append(out, Entry{Name: k.Value, Value: value, Node: resolve(v), Line: k.Line})
	}
	return out, nil
}

// lookup returns the value node at keyPath, nil when a key is missing.
func (d *Document) lookup(keyPath []string) (*yaml.Node, error) {
	n := d.root
	for i, k := range keyPath {
		if n == nil {
			return nil, nil
		}
		n = resolve(n)
		if isNull(n) {
			return nil, nil
		}
		if n.Kind != yaml.MappingNode {
			return nil, d.errorAt(n, fmt.Errorf("%s is %s, not a mapping", dotted(keyPath[:i]), kindName(n)))
		}
		_, n = member(n, k)
	}
	return n, nil
}

// member returns the key and value nodes of key in mapping m.
func member(m *yaml.Node, key string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Kind == yaml.ScalarNode && m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// resolve follows an alias to the node it stands for.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

func (d *Document) errorAt(n *yaml.Node, err error) error {
	return &provider.ParseError{File: d.Path, Line: n.Line, Column: n.Column, Err: err}
}

// kindName says what a node is, for messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	if isNull(n) {
		return "null"
	}
	if what, ok := map[string]string{"!!str": "a string", "!!int": "a number", "!!float": "a number", "!!bool": "true or false"}[n.Tag]; ok {
		return what
	}
	return "a value"
}

// dotted names a key path for messages.
func dotted(keyPath []string) string {
	if len(keyPath) == 0 {
		return "the top level"
	}
	var b bytes.Buffer
	for i, k := range keyPath {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(k)
	}
	return b.String()
}

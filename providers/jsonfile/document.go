package jsonfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/tailscale/hujson"
)

// A Document is one parsed JSON or JSONC file.
type Document struct {
	path string
	src  []byte
	root hujson.Value
	tree map[string]any // the standard JSON meaning of src
}

// A Member is one member of an object: its name and its value as standard
// JSON (comments and trailing commas removed).
type Member struct {
	Name  string
	Value json.RawMessage
}

// Load reads and parses the file at path. A missing file is
// provider.ErrNotConfigured; one that does not parse is a
// *provider.ParseError.
func Load(path string) (*Document, error) {
	doc, info := fromCache(path)
	if doc != nil {
		return doc, nil
	}
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", path, provider.ErrNotConfigured)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if doc, err = Parse(path, src); err != nil {
		return nil, err
	}
	remember(path, info, doc)
	return doc, nil
}

// LoadOptional is Load for a file that may be missing: nil, nil then.
func LoadOptional(path string) (*Document, error) {
	d, err := Load(path)
	if errors.Is(err, provider.ErrNotConfigured) {
		return nil, nil
	}
	return d, err
}

// Parse parses src, the content of the file at path. The document must be
// an object nested at most MaxDepth levels deep.
func Parse(path string, src []byte) (*Document, error) {
	if err := checkDepth(path, src); err != nil {
		return nil, err
	}
	root, err := hujson.Parse(src)
	if err != nil {
		return nil, parseError(path, src, err)
	}
	if _, ok := root.Value.(*hujson.Object); !ok {
		return nil, positionError(path, src, root.StartOffset, errors.New("the file does not hold a JSON object"))
	}
	var tree map[string]any
	if err := decode(standard(root), &tree); err != nil {
		return nil, &provider.ParseError{File: path, Err: err}
	}
	return &Document{path: path, src: src, root: root, tree: tree}, nil
}

// Bytes returns the document's content.
func (d *Document) Bytes() []byte { return d.src }

// Members returns the members of the object at keyPath in file order, or
// nil when the key path does not exist. When a name occurs twice, the last
// one wins, as in the tools that read these files.
func (d *Document) Members(keyPath []string) ([]Member, error) {
	obj, err := d.object(keyPath)
	if err != nil || obj == nil {
		return nil, err
	}
	var out []Member
	at := map[string]int{}
	for _, m := range obj.Value.(*hujson.Object).Members {
		mem := Member{Name: nameOf(m.Name), Value: standard(m.Value)}
		if i, ok := at[mem.Name]; ok {
			out[i] = mem
			continue
		}
		at[mem.Name] = len(out)
		out = append(out, mem)
	}
	return out, nil
}

// Lookup returns the value at keyPath (any kind of value), decoded from
// standard JSON with numbers as json.Number, and whether it exists.
func (d *Document) Lookup(keyPath ...string) (any, bool) {
	return lookup(d.tree, keyPath)
}

// object returns the object at keyPath, nil when some key is missing, or an
// error when a value on the way is not an object.
func (d *Document) object(keyPath []string) (*hujson.Value, error) {
	chain, err := d.chain(keyPath)
	if err != nil || len(chain) <= len(keyPath) {
		return nil, err
	}
	return chain[len(keyPath)], nil
}

// chain returns the objects along keyPath that exist, the root first.
func (d *Document) chain(keyPath []string) ([]*hujson.Value, error) {
	chain := []*hujson.Value{&d.root}
	cur := &d.root
	for i, key := range keyPath {
		idx := memberIndex(cur, key)
		if idx < 0 {
			return chain, nil
		}
		next := &cur.Value.(*hujson.Object).Members[idx].Value
		if _, ok := next.Value.(*hujson.Object); !ok {
			return nil, positionError(d.path, d.src, next.StartOffset,
				fmt.Errorf("%s is not an object", dotted(keyPath[:i+1])))
		}
		chain = append(chain, next)
		cur = next
	}
	return chain, nil
}

// memberIndex returns the index of the last member named name in obj, or -1.
func memberIndex(obj *hujson.Value, name string) int {
	idx := -1
	for i, m := range obj.Value.(*hujson.Object).Members {
		if nameOf(m.Name) == name {
			idx = i
		}
	}
	return idx
}

// countMembers returns how many members of obj are named name.
func countMembers(obj *hujson.Value, name string) int {
	n := 0
	for _, m := range obj.Value.(*hujson.Object).Members {
		if nameOf(m.Name) == name {
			n++
		}
	}
	return n
}

func nameOf(v hujson.Value) string { return v.Value.(hujson.Literal).String() }

// standard returns v as standard JSON.
func standard(v hujson.Value) []byte {
	c := v.Clone()
	c.Standardize()
	return bytes.TrimSpace(c.Pack())
}

func dotted(keyPath []string) string {
	b, _ := json.Marshal(keyPath)
	return string(b)
}

// ObjectMembers returns the members of a standard JSON object in order, or
// ok == false when b is not an object.
func ObjectMembers(b []byte) (members []Member, ok bool) {
	v, err := hujson.Parse(b)
	if err != nil {
		return nil, false
	}
	obj, isObj := v.Value.(*hujson.Object)
	if !isObj {
		return nil, false
	}
	for _, m := range obj.Members {
		members = append(members, Member{Name: nameOf(m.Name), Value: standard(m.Value)})
	}
	return members, true
}

// Strings returns the strings in the list at keyPath; nil when there is no
// such list.
func (d *Document) Strings(keyPath ...string) []string {
	v, _ := lookup(d.tree, keyPath)
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

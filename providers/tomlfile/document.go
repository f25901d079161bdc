package tomlfile

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/BurntSushi/toml"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// A Document is a TOML file as read: its bytes and their decoded tree.
// Nothing changes it after Parse.
type Document struct {
	Path string
	Data []byte         // nil for a file that does not exist
	Tree map[string]any // read only: shared with whoever reads the document
	keys []toml.Key     // every key in file order, from BurntSushi's metadata
}

// An Entry is one named table of a map table, as decoded.
type Entry struct {
	Name  string
	Table map[string]any
	// Line is the line of the entry's first header or key, for messages;
	// zero when it cannot be located.
	Line int
}

// Parse decodes data, which was read from path; nil data is a file that
// does not exist yet, an empty document that edits can create. A document
// that does not parse is a *provider.ParseError with the line and column of
// the problem.
func Parse(path string, data []byte) (*Document, error) {
	if err := checkDepth(path, data); err != nil {
		return nil, err
	}
	tree, md, err := decode(data)
	if err != nil {
		return nil, parseError(path, err)
	}
	return &Document{Path: path, Data: data, Tree: tree, keys: md.Keys()}, nil
}

func decode(data []byte) (map[string]any, toml.MetaData, error) {
	tree := map[string]any{}
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&tree)
	return tree, md, err
}

// Entries returns the tables in the map at keyPath, in file order. A
// document without that map has none.
func (d *Document) Entries(keyPath []string) ([]Entry, error) {
	m, err := lookup(d.Tree, keyPath)
	if err != nil || m == nil {
		return nil, d.errorf(0, err)
	}
	var lines map[string]int
	if exprs, err := layout(d.Data); err == nil {
		lines = entryLines(d.Data, exprs, keyPath)
	}
	var out []Entry
	for _, name := range d.names(keyPath, m) {
		t, ok := m[name].(map[string]any)
		if !ok {
			return nil, d.errorf(lines[name], fmt.Errorf("%s is a %T, not a table", Dotted(append(slices.Clone(keyPath), name)), m[name]))
		}
		out = append(out, Entry{Name: name, Table: t, Line: lines[name]})
	}
	return out, nil
}

// Table returns the entry keyPath.name as decoded, nil when there is none
// or it is not a table.
func (d *Document) Table(keyPath []string, name string) map[string]any {
	m, _ := lookup(d.Tree, append(slices.Clone(keyPath), name))
	return m
}

// names lists the keys of m in the order the file first mentions them.
func (d *Document) names(keyPath []string, m map[string]any) []string {
	var names []string
	seen := map[string]bool{}
	for _, k := range d.keys {
		if len(k) != len(keyPath)+1 || !slices.Equal(k[:len(keyPath)], keyPath) || seen[k[len(keyPath)]] {
			continue
		}
		if _, ok := m[k[len(keyPath)]]; ok {
			seen[k[len(keyPath)]] = true
			names = append(names, k[len(keyPath)])
		}
	}
	var rest []string
	for name := range m {
		if !seen[name] {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

func (d *Document) errorf(line int, err error) error {
	if err == nil {
		return nil
	}
	return &provider.ParseError{File: d.Path, Line: line, Err: err}
}

// lookup returns the map at keyPath, nil when some part is missing, or an
// error when a part is not a table.
func lookup(tree map[string]any, keyPath []string) (map[string]any, error) {
	m := tree
	for i, k := range keyPath {
		v, ok := m[k]
		if !ok {
			return nil, nil
		}
		next, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s is a %T, not a table", Dotted(keyPath[:i+1]), v)
		}
		m = next
	}
	return m, nil
}

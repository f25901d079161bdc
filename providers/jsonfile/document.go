package jsonfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/tailscale/hujson"
)

// A Document is one parsed JSON or JSONC file. Nothing changes what it
// means after Parse (Edit works on a copy, and only remembers its last
// result), so one Document serves every location of its file in a run; it
// is safe for concurrent use.
type Document struct {
	path string
	src  []byte // the file's content; nil when the file does not exist
	text []byte // what root was parsed from: src, or "{}\n" for a missing file
	root hujson.Value
	tree map[string]any // the standard JSON meaning of text
	// read is what ParseOnly was given, nil for a document parsed whole;
	// holes are the parts of text it left out of root.
	read  [][]string
	holes []hole
	// streamed is set for a document of ParseOnly read with a streaming
	// decoder: root is then empty, and whole builds it.
	streamed *streamed

	mu     sync.Mutex
	index  map[*hujson.Object]names // built on first use, per object
	edited edited                   // the last Edit
}

// A Member is one member of an object: its name and its value decoded
// from standard JSON (numbers as json.Number).
type Member struct {
	Name  string
	Value any
}

// Parse parses src, the content of the file at path, which must hold an
// object. A nil src is a file that does not exist yet: an empty document
// that edits can create. A document that does not parse is a
// *provider.ParseError.
func Parse(path string, src []byte) (*Document, error) {
	return parse(path, src, nil)
}

// parse parses src whole (read == nil) or only what read reaches (see
// ParseOnly).
func parse(path string, src []byte, read [][]string) (*Document, error) {
	text := src
	if src == nil {
		text = []byte("{}\n") // what a file that does not exist yet is edited from
	}
	if err := checkDepth(path, text); err != nil {
		return nil, err
	}
	d := &Document{path: path, src: src, text: text, read: read, index: map[*hujson.Object]names{}}
	if read != nil {
		var err error
		if d.root, d.holes, err = parseOnly(path, text, read); err != nil {
			return nil, err
		}
	} else {
		root, err := hujson.Parse(text)
		if err != nil {
			return nil, parseError(path, text, err)
		}
		if _, ok := root.Value.(*hujson.Object); !ok {
			return nil, positionError(path, text, root.StartOffset, errors.New("the file does not hold a JSON object"))
		}
		d.root = root
	}
	d.tree, _ = meaning(d.root).(map[string]any)
	return d, nil
}

// Path returns the path the document was read from.
func (d *Document) Path() string { return d.path }

// Bytes returns the document's content, nil for a file that does not exist.
func (d *Document) Bytes() []byte { return d.src }

// Members returns the members of the object at keyPath in file order, or
// nil when the key path does not exist. When a name occurs twice, the last
// one wins, as in the tools that read these files; it keeps the place of
// the first. A key path a document of ParseOnly does not read is an error.
func (d *Document) Members(keyPath []string) ([]Member, error) {
	if !d.reads(keyPath) {
		return nil, unread(d.path, keyPath)
	}
	if d.streamed != nil {
		return d.streamedMembers(keyPath)
	}
	obj, err := d.object(keyPath)
	if err != nil || obj == nil {
		return nil, err
	}
	values, _ := lookup(d.tree, keyPath)
	m, _ := values.(map[string]any)
	members := obj.Value.(*hujson.Object).Members
	out := make([]Member, 0, len(members))
	seen := make(map[string]bool, len(members))
	for _, mem := range members {
		name := nameOf(mem.Name)
		if !seen[name] {
			seen[name] = true
			out = append(out, Member{Name: name, Value: m[name]})
		}
	}
	return out, nil
}

// Lookup returns the value at keyPath (any kind of value), decoded from
// standard JSON with numbers as json.Number, and whether it exists. What a
// document of ParseOnly does not read is a Raw.
func (d *Document) Lookup(keyPath ...string) (any, bool) {
	return lookup(d.tree, keyPath)
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

// object returns the object at keyPath, nil when some key is missing, or an
// error when a value on the way is not an object.
func (d *Document) object(keyPath []string) (*hujson.Value, error) {
	cur := &d.root
	for i, key := range keyPath {
		at := d.names(cur.Value.(*hujson.Object))[key]
		if len(at) == 0 {
			return nil, nil
		}
		cur = &cur.Value.(*hujson.Object).Members[at[len(at)-1]].Value
		if _, ok := cur.Value.(*hujson.Object); !ok {
			return nil, d.notObject(cur, keyPath[:i+1])
		}
	}
	return cur, nil
}

// names returns the name index of an object of the document, building it
// the first time: ~/.claude.json holds hundreds of projects, each looked up
// once per location.
func (d *Document) names(o *hujson.Object) names {
	d.mu.Lock()
	defer d.mu.Unlock()
	n, ok := d.index[o]
	if !ok {
		n = indexNames(o)
		d.index[o] = n
	}
	return n
}

func (d *Document) notObject(v *hujson.Value, keyPath []string) error {
	return positionError(d.path, d.text, d.offset(v.StartOffset), fmt.Errorf("%s is not an object", dotted(keyPath)))
}

// unread is the error of a key path a document of ParseOnly did not read:
// a mistake of the provider, which says what it reads.
func unread(path string, keyPath []string) error {
	return fmt.Errorf("%s: %s is not among the parts of the file chronicle reads", path, dotted(keyPath))
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
		members = append(members, Member{Name: nameOf(m.Name), Value: meaning(m.Value)})
	}
	return members, true
}

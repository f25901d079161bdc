package jsonfile

import (
	"bytes"
	"errors"
	"slices"
	"sort"
	"unsafe"

	"github.com/tailscale/hujson"
	"github.com/tidwall/gjson"
)

// A Raw is an object or array of a document parsed with ParseOnly that lies
// outside what the document reads: the bytes the file holds, never decoded.
// Lookup gives it as it is; an edit copies it byte for byte.
type Raw []byte

// ParseOnly parses src like Parse, but builds the tree of only the parts of
// the file that the key paths in read reach: the value at each key path
// whole, and the objects on the way to it. A key path may hold "*", which
// matches any name. Every other object or array stays its bytes (a Raw), so
// that ~/.claude.json, whose projects hold megabytes of history chronicle
// never reads, costs a scan of its bytes rather than a tree of them. The
// whole file is still checked to be JSON or JSONC.
//
// Members and Edit refuse a key path outside read: what the document has
// there is not parsed.
//
// The file is read with a streaming decoder (jsontext) that keeps only
// those values and the names on the way; the tree an edit needs is built
// on the first edit. A file that is not standard JSON (JSONC) is parsed as
// a tree at once. The decoder does not recurse, so MaxDepth, which guards
// the recursive parser, is checked on the values it keeps and by the tree
// an edit builds: a file nested deeper inside what chronicle does not read
// is read, and refused only for an edit.
func ParseOnly(path string, src []byte, read ...[]string) (*Document, error) {
	if len(read) == 0 {
		return nil, errors.New("jsonfile.ParseOnly: no key path to read")
	}
	if src == nil {
		return parse(path, src, read)
	}
	tree, subs, ok := stream(path, src, read)
	if !ok {
		return parse(path, src, read)
	}
	return &Document{path: path, src: src, text: src, tree: tree, read: read, streamed: &streamed{subs: subs}}, nil
}

// A hole is an object or array left out of the tree: the placeholder at
// offset at of the parsed text stands for text[from:to] of the file. shift
// is how many bytes the placeholders up to this one save, so that an offset
// after it is shift bytes further in the file.
type hole struct{ at, from, to, shift int }

// parseOnly returns the tree of text holding only what read reaches, and
// the holes it leaves.
func parseOnly(path string, text []byte, read [][]string) (hujson.Value, []hole, error) {
	std, err := standard(path, text)
	if err != nil {
		return hujson.Value{}, nil, err
	}
	// gjson reads strings. A copy of the bytes would double what a large
	// file costs; nothing writes to std while s is in use (or after).
	s := unsafe.String(unsafe.SliceData(std), len(std))
	top := gjson.Parse(s)
	if !top.IsObject() {
		return hujson.Value{}, nil, positionError(path, text, len(s)-len(top.Raw), errors.New("the file does not hold a JSON object"))
	}
	top.Index = len(s) - len(top.Raw)
	var holes []hole
	skipUnread(top, read, &holes)

	reduced := make([]byte, 0, len(text)-spanned(holes)+len(holes))
	last, shift := 0, 0
	for i, h := range holes {
		reduced = append(reduced, text[last:h.from]...)
		shift += h.to - h.from - 1
		holes[i].at, holes[i].shift = len(reduced), shift
		reduced = append(reduced, '0')
		last = h.to
	}
	reduced = append(reduced, text[last:]...)
	root, err := hujson.Parse(reduced)
	if err != nil {
		// The scan accepted what the parser does not: the parse of the
		// whole file says where.
		if _, full := hujson.Parse(text); full != nil {
			return hujson.Value{}, nil, parseError(path, text, full)
		}
		return hujson.Value{}, nil, parseError(path, text, err)
	}
	at := make(map[int]hole, len(holes))
	for _, h := range holes {
		at[h.at] = h
	}
	for v := range root.All() {
		if h, ok := at[v.StartOffset]; ok {
			if _, lit := v.Value.(hujson.Literal); lit {
				v.Value = hujson.Literal(text[h.from:h.to:h.to])
			}
		}
	}
	return root, holes, nil
}

// standard returns text as standard JSON of the same length: text itself
// when it is, else text with its comments and trailing commas blanked.
func standard(path string, text []byte) ([]byte, error) {
	if gjson.ValidBytes(text) {
		return text, nil
	}
	v, err := hujson.Parse(bytes.Clone(text)) // Standardize blanks the bytes it parsed
	if err != nil {
		return nil, parseError(path, text, err)
	}
	v.Standardize()
	return v.Pack(), nil
}

// skipUnread appends to holes the objects and arrays among obj's members
// that no key path of read reaches, and walks the objects on the way to
// one.
func skipUnread(obj gjson.Result, read [][]string, holes *[]hole) {
	obj.ForEach(func(name, v gjson.Result) bool {
		var next [][]string
		whole := false
		for _, p := range read {
			if p[0] == "*" || p[0] == name.Str {
				if len(p) == 1 {
					whole = true
					break
				}
				next = append(next, p[1:])
			}
		}
		switch {
		case whole:
		case next != nil && v.IsObject():
			skipUnread(v, next, holes)
		case v.IsObject() || v.IsArray():
			*holes = append(*holes, hole{from: v.Index, to: v.Index + len(v.Raw)})
		}
		return true
	})
}

func spanned(holes []hole) int {
	n := 0
	for _, h := range holes {
		n += h.to - h.from
	}
	return n
}

// offset returns the offset in the file of offset at of what was parsed.
func (d *Document) offset(at int) int {
	n := sort.Search(len(d.holes), func(i int) bool { return d.holes[i].at >= at })
	if n == 0 {
		return at
	}
	return at + d.holes[n-1].shift
}

// reads reports whether the document parsed the object at keyPath whole.
func (d *Document) reads(keyPath []string) bool {
	if d.read == nil {
		return true
	}
	return slices.ContainsFunc(d.read, func(p []string) bool {
		if len(p) > len(keyPath) {
			return false
		}
		for i, k := range p {
			if k != "*" && k != keyPath[i] {
				return false
			}
		}
		return true
	})
}

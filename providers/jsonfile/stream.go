package jsonfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/tailscale/hujson"
)

// A streamed document is one ParseOnly read with a streaming decoder
// (jsontext): its meaning holds the values at the key paths it reads and
// the objects on the way to them, each other object or array as the file's
// bytes (a Raw), exactly as the tree of parseOnly means; subs holds each
// object at a key path parsed alone, whose members Members gives. The tree of the whole document — hujson's, which an edit
// needs — is built on first need (whole).
type streamed struct {
	// subs holds, by key path (spanKey), each object at a key path of read
	// parsed alone: what Members reads.
	subs map[string]*Document

	mu    sync.Mutex
	whole *Document // nil until built
	err   error
}

// A span is where a value lies in a document's text: text[from:to].
type span struct{ from, to int }

// stream reads text, the content of the file at path, which must hold one
// JSON object, with a streaming decoder and returns its meaning as
// parseOnly's tree means it, and each object at a key path of read parsed
// alone. It returns false for what jsontext does not read as standard JSON
// (comments, trailing commas, invalid UTF-8, a syntax error) or a value it
// keeps nested deeper than MaxDepth: the tree's parse says what that is.
func stream(path string, text []byte, read [][]string) (map[string]any, map[string]*Document, bool) {
	s := &streamer{
		dec:  jsontext.NewDecoder(bytes.NewBuffer(text), jsontext.AllowDuplicateNames(true)),
		path: path,
		text: text,
		subs: map[string]*Document{},
	}
	if tok, err := s.dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, nil, false
	}
	tree, err := s.object(nil, read)
	if err != nil {
		return nil, nil, false
	}
	if _, err := s.dec.ReadToken(); err != io.EOF {
		return nil, nil, false
	}
	return tree, s.subs, true
}

type streamer struct {
	dec  *jsontext.Decoder
	path string
	text []byte
	subs map[string]*Document
}

// object reads the members of the object at key path at, whose '{' was
// read, up to its '}'.
func (s *streamer) object(at []string, read [][]string) (map[string]any, error) {
	m := map[string]any{}
	for {
		tok, err := s.dec.ReadToken()
		if err != nil {
			return nil, err
		}
		if tok.Kind() == '}' {
			return m, nil
		}
		name := tok.String()
		var next [][]string
		whole := false
		for _, p := range read {
			if p[0] == "*" || p[0] == name {
				if len(p) == 1 {
					whole = true
					break
				}
				next = append(next, p[1:])
			}
		}
		kind := s.dec.PeekKind()
		switch {
		case whole && kind == '{':
			sp, err := s.value()
			if err != nil {
				return nil, err
			}
			// Parsed alone, once: its meaning is the tree's, its members
			// what Members gives. An error (too deep) is the tree's to
			// report, with its position in the file.
			sub, err := parse(s.path, s.text[sp.from:sp.to], nil)
			if err != nil {
				return nil, err
			}
			m[name] = sub.tree
			s.subs[spanKey(slices.Concat(at, []string{name}))] = sub
		case whole:
			sp, err := s.value()
			if err != nil {
				return nil, err
			}
			value := s.text[sp.from:sp.to]
			if err := checkDepth(s.path, value); err != nil {
				return nil, err
			}
			v, err := hujson.Parse(value)
			if err != nil {
				return nil, err
			}
			m[name] = meaning(v)
		case next != nil && kind == '{':
			if _, err := s.dec.ReadToken(); err != nil {
				return nil, err
			}
			if m[name], err = s.object(slices.Concat(at, []string{name}), next); err != nil {
				return nil, err
			}
		case kind == '{' || kind == '[':
			sp, err := s.value()
			if err != nil {
				return nil, err
			}
			m[name] = Raw(s.text[sp.from:sp.to:sp.to])
		default:
			tok, err := s.dec.ReadToken()
			if err != nil {
				return nil, err
			}
			m[name] = scalar(tok)
		}
	}
}

// value reads the next value whole and returns where it lies.
func (s *streamer) value() (span, error) {
	raw, err := s.dec.ReadValue()
	if err != nil {
		return span{}, err
	}
	to := int(s.dec.InputOffset())
	return span{from: to - len(raw), to: to}, nil
}

// scalar is what a string, number or literal token means, as meaning
// decodes it.
func scalar(tok jsontext.Token) any {
	switch tok.Kind() {
	case '"':
		return tok.String()
	case '0':
		return json.Number(tok.String())
	case 't':
		return true
	case 'f':
		return false
	}
	return nil
}

func spanKey(keyPath []string) string { return strings.Join(keyPath, "\x00") }

// whole returns the document with its tree: d itself unless it was
// streamed, else the tree of ParseOnly, parsed the first time.
func (d *Document) whole() (*Document, error) {
	if d.streamed == nil {
		return d, nil
	}
	s := d.streamed
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.whole == nil && s.err == nil {
		s.whole, s.err = parse(d.path, d.src, d.read)
	}
	return s.whole, s.err
}

// built is the tree of a streamed document when an edit has built it, else
// nil.
func (s *streamed) built() *Document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.whole
}

// streamedMembers is Members of a streamed document: the value at the key
// path of read that keyPath goes through is parsed alone. A value on the
// way that is not an object is the whole tree's to report, with its
// position in the file.
func (d *Document) streamedMembers(keyPath []string) ([]Member, error) {
	for i := range keyPath {
		prefix := keyPath[:i+1]
		v, ok := lookup(d.tree, prefix)
		if !ok {
			return nil, nil // its parent is an object: the root, or checked one step up
		}
		if _, isObj := v.(map[string]any); !isObj {
			break
		}
		if sub, kept := d.streamed.subs[spanKey(prefix)]; kept {
			if members, err := sub.Members(keyPath[i+1:]); err == nil {
				return members, nil
			}
			break
		}
	}
	w, err := d.whole()
	if err != nil {
		return nil, err
	}
	return w.Members(keyPath)
}

// Names returns the names of the members of the object at keyPath in the
// JSON document read from r, in file order, reading it with a streaming
// decoder: nothing else of the document is kept, however large. The whole
// document is read and must be standard JSON holding an object; a key path
// that does not lead to an object gives no names.
func Names(r io.Reader, keyPath ...string) ([]string, error) {
	dec := jsontext.NewDecoder(r, jsontext.AllowDuplicateNames(true))
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	if tok.Kind() != '{' {
		return nil, errors.New("the file does not hold a JSON object")
	}
	var out []string
	if err := memberNames(dec, keyPath, &out); err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			err = errors.New("unexpected data after the JSON value")
		}
		return nil, err
	}
	return out, nil
}

// memberNames reads the members of an object whose '{' was read, appending to
// out the names of the object at keyPath below it (its own when keyPath is
// empty). A name held twice counts once; the last value of a name on the
// way wins, as in Members.
func memberNames(dec *jsontext.Decoder, keyPath []string, out *[]string) error {
	seen := map[string]bool{}
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		if tok.Kind() == '}' {
			return nil
		}
		name := tok.String()
		switch {
		case len(keyPath) == 0:
			if !seen[name] {
				seen[name] = true
				*out = append(*out, name)
			}
			err = dec.SkipValue()
		case name == keyPath[0]:
			*out = (*out)[:0]
			if dec.PeekKind() != '{' {
				err = dec.SkipValue()
			} else if _, err = dec.ReadToken(); err == nil {
				err = memberNames(dec, keyPath[1:], out)
			}
		default:
			err = dec.SkipValue()
		}
		if err != nil {
			return err
		}
	}
}

package hub

import (
	"bytes"
	"encoding/json"
	"reflect"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// The hub reads a few top-level members of the JSON-RPC messages that pass
// through it (the method and the id, a tools/call's tool, a cancellation's
// request id) before mcp-go decodes the message or after it encoded one.
// peekMessage finds them by scanning the bytes once, without decoding the
// rest (the arguments, the result): no allocation, and nothing that
// mcp-go will not decode itself anyway.

// A peeked message is the raw JSON of its top-level id, method and params.
type peeked struct {
	id, method, params []byte
}

// peekMessage scans msg, a JSON object, for its id, method and params. A
// member whose name is spelled with escapes, or a document that is not an
// object, is read with encoding/json instead, so that the hub never sees a
// message other than mcp-go does.
func peekMessage(msg []byte) peeked {
	var p peeked
	ok := scanObject(msg, func(key, value []byte) {
		switch {
		case keyIs(key, "id"):
			p.id = value
		case keyIs(key, "method"):
			p.method = value
		case keyIs(key, "params"):
			p.params = value
		}
	})
	if ok {
		return p
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return peeked{}
	}
	return peeked{id: m.ID, method: m.Method, params: m.Params}
}

// is reports whether the message's method is method.
func (p peeked) is(method mcp.MCPMethod) bool {
	if bytes.IndexByte(p.method, '\\') >= 0 { // spelled with escapes: "tools\/call"
		return stringValue(p.method) == string(method)
	}
	return len(p.method) == len(method)+2 && p.method[0] == '"' && string(p.method[1:len(p.method)-1]) == string(method)
}

// hasMethod reports whether the message has a method (a request or a
// notification, not a response).
func (p peeked) hasMethod() bool { return len(p.method) > 0 && !bytes.Equal(p.method, []byte("null")) }

// param returns the raw value of one member of the params object.
func (p peeked) param(name string) []byte {
	var v []byte
	if !scanObject(p.params, func(key, value []byte) {
		if keyIs(key, name) {
			v = value
		}
	}) {
		// A struct with the one field, so that the name matches as it
		// does for mcp-go.
		t := reflect.StructOf([]reflect.StructField{{Name: "V", Type: reflect.TypeFor[json.RawMessage](), Tag: reflect.StructTag(`json:"` + name + `"`)}})
		m := reflect.New(t)
		if json.Unmarshal(p.params, m.Interface()) == nil {
			v = m.Elem().Field(0).Bytes()
		}
	}
	return v
}

// stringValue decodes a JSON string, or returns "" for anything else.
func stringValue(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if s := raw[1 : len(raw)-1]; bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
		return string(s)
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// scanObject calls member for each member of the JSON object b, with its
// name and its raw value, and reports whether b was an object it could
// read without decoding: false for anything else, and for a member name
// with an escape sequence. It does not validate what it skips; mcp-go
// decodes and validates every message the hub peeks at.
func scanObject(b []byte, member func(key, value []byte)) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		end := skipString(b, i)
		if end < 0 {
			return false
		}
		key := b[i+1 : end-1]
		for _, c := range key {
			if c == '\\' || c >= 0x80 {
				return false
			}
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		end = skipValue(b, i)
		if end < 0 {
			return false
		}
		member(key, b[i:end])
		i = skipSpace(b, end)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case '}':
			return true
		case ',':
			i = skipSpace(b, i+1)
		default:
			return false
		}
	}
	return false
}

// keyIs reports whether an ASCII member name is name, as encoding/json
// matches it: without regard to case.
func keyIs(key []byte, name string) bool {
	if len(key) != len(name) {
		return false
	}
	for i := range len(key) {
		c, n := key[i], name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if 'A' <= n && n <= 'Z' {
			n += 'a' - 'A'
		}
		if c != n {
			return false
		}
	}
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"',
// or -1.
func skipString(b []byte, i int) int {
	for i++; i < len(b); {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return -1
		}
		i += q
		escapes := 0
		for j := i - 1; b[j] == '\\'; j-- {
			escapes++
		}
		if escapes%2 == 0 {
			return i + 1
		}
		i++
	}
	return -1
}

// skipValue returns the index after the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				end := skipString(b, i)
				if end < 0 {
					return -1
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	start := i
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}

package hub

import (
	"bytes"
	"encoding/json"
	"reflect"
	"unicode/utf8"
	"unsafe"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/tidwall/gjson"
)

// The hub reads a few top-level members of the JSON-RPC messages that pass
// through it (the method and the id, a tools/call's tool, a cancellation's
// request id) before mcp-go decodes the message or after it encoded one.
// peekMessage finds them with gjson, which walks the bytes without decoding
// the rest (the arguments, the result): no allocation, and nothing that
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
	// params is valid JSON: a member of a message scanObject or
	// encoding/json read.
	if len(p.params) == 0 || p.params[0] != '{' || !scanValid(p.params, func(key, value []byte) {
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
// name and its raw value (both slices of b), and reports whether b was an
// object it could read this way: false for anything that is not valid
// JSON or not an object, and for a member name spelled with an escape or
// outside ASCII (the caller then decodes with encoding/json, as mcp-go
// does). The reading is gjson's: it validates b, then walks its members
// without decoding them and without allocating.
func scanObject(b []byte, member func(key, value []byte)) bool {
	doc := bytes.TrimLeft(b, " \t\r\n")
	if len(doc) == 0 || doc[0] != '{' || !gjson.ValidBytes(doc) {
		return false
	}
	return scanValid(doc, member)
}

// scanValid is scanObject on doc, valid JSON that starts with '{' (a
// member of an object scanObject read).
func scanValid(doc []byte, member func(key, value []byte)) bool {
	// gjson reads strings: doc is viewed as one without a copy. Nothing
	// gjson returns outlives this call, and doc is not changed during it.
	obj := gjson.Parse(unsafe.String(&doc[0], len(doc)))
	ok := true
	obj.ForEach(func(key, value gjson.Result) bool {
		if !plainKey(key.Raw) || value.Index <= 0 || value.Index+len(value.Raw) > len(doc) {
			ok = false
			return false
		}
		member(doc[key.Index+1:key.Index+len(key.Raw)-1], doc[value.Index:value.Index+len(value.Raw)])
		return true
	})
	return ok
}

// plainKey reports whether a member name, quotes included, is ASCII
// without escapes.
func plainKey(raw string) bool {
	if len(raw) < 2 {
		return false
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' || raw[i] >= 0x80 {
			return false
		}
	}
	return true
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

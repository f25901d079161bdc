package wire

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
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

// A Message message is the raw JSON of its top-level id, method and params.
type Message struct {
	ID, Method, Params []byte
}

// Peek scans msg, a JSON object, for its id, method and params. A
// member whose name is spelled with escapes, or a document that is not an
// object, is read with encoding/json instead, so that the hub never sees a
// message other than mcp-go does.
func Peek(msg []byte) Message {
	var p Message
	ok := ScanObject(msg, func(key, value []byte) {
		switch {
		case KeyIs(key, "id"):
			p.ID = value
		case KeyIs(key, "method"):
			p.Method = value
		case KeyIs(key, "params"):
			p.Params = value
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
		return Message{}
	}
	return Message{ID: m.ID, Method: m.Method, Params: m.Params}
}

// Is reports whether the message's method Is method.
func (p Message) Is(method mcp.MCPMethod) bool {
	if bytes.IndexByte(p.Method, '\\') >= 0 { // spelled with escapes: "tools\/call"
		return StringValue(p.Method) == string(method)
	}
	return len(p.Method) == len(method)+2 && p.Method[0] == '"' && string(p.Method[1:len(p.Method)-1]) == string(method)
}

// HasMethod reports whether the message has a method (a request or a
// notification, not a response).
func (p Message) HasMethod() bool { return len(p.Method) > 0 && !bytes.Equal(p.Method, []byte("null")) }

// Param returns the raw value of one member of the params object.
func (p Message) Param(name string) []byte {
	var v []byte
	// params is valid JSON: a member of a message scanObject or
	// encoding/json read.
	if len(p.Params) == 0 || p.Params[0] != '{' || !ScanValid(p.Params, func(key, value []byte) {
		if KeyIs(key, name) {
			v = value
		}
	}) {
		// A struct with the one field, so that the name matches as it
		// does for mcp-go.
		t := reflect.StructOf([]reflect.StructField{{Name: "V", Type: reflect.TypeFor[json.RawMessage](), Tag: reflect.StructTag(`json:"` + name + `"`)}})
		m := reflect.New(t)
		if json.Unmarshal(p.Params, m.Interface()) == nil {
			v = m.Elem().Field(0).Bytes()
		}
	}
	return v
}

// StringValue decodes a JSON string, or returns "" for anything else.
func StringValue(raw []byte) string {
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

// ScanObject calls member for each member of the JSON object b, with its
// name and its raw value (both slices of b), and reports whether b was an
// object it could read this way: false for anything that is not valid
// JSON or not an object, and for a member name spelled with an escape or
// outside ASCII (the caller then decodes with encoding/json, as mcp-go
// does). The reading is gjson's: it validates b, then walks its members
// without decoding them and without allocating.
func ScanObject(b []byte, member func(key, value []byte)) bool {
	doc := bytes.TrimLeft(b, " \t\r\n")
	if len(doc) == 0 || doc[0] != '{' || !gjson.ValidBytes(doc) {
		return false
	}
	return ScanValid(doc, member)
}

// ScanValid is scanObject on doc, valid JSON that starts with '{' (a
// member of an object scanObject read).
func ScanValid(doc []byte, member func(key, value []byte)) bool {
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

// KeyIs reports whether an ASCII member name is name, as encoding/json
// matches it: without regard to case.
func KeyIs(key []byte, name string) bool {
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

// CalledTool returns the tool a tools/call message names, or "".
func (p Message) CalledTool() string {
	if !p.Is(mcp.MethodToolsCall) {
		return ""
	}
	return StringValue(p.Param("name"))
}

// InitializeRoot reads the folder some clients name in initialize outside
// MCP (rootUri, or the first of workspaceFolders), or "".
func (p Message) InitializeRoot() string {
	if !p.Is(mcp.MethodInitialize) {
		return ""
	}
	var params struct {
		RootURI          string `json:"rootUri"`
		WorkspaceFolders []struct {
			URI string `json:"uri"`
		} `json:"workspaceFolders"`
	}
	if json.Unmarshal(p.Params, &params) != nil {
		return ""
	}
	if params.RootURI != "" {
		return RootFromURI(params.RootURI)
	}
	if len(params.WorkspaceFolders) > 0 {
		return RootFromURI(params.WorkspaceFolders[0].URI)
	}
	return ""
}

// ListKind returns the kind of list a list_changed notification announces.
func (p Message) ListKind() (string, bool) {
	switch {
	case p.Is(mcp.MethodNotificationToolsListChanged):
		return "tools", true
	case p.Is(mcp.MethodNotificationPromptsListChanged):
		return "prompts", true
	case p.Is(mcp.MethodNotificationResourcesListChanged):
		return "resources", true
	}
	return "", false
}

// RootFromURI turns a file:// root URI (MCP roots) into a path.
func RootFromURI(uri string) string {
	if strings.HasPrefix(uri, "file://") {
		return filepath.Clean(strings.TrimPrefix(uri, "file://"))
	}
	if filepath.IsAbs(uri) {
		return filepath.Clean(uri)
	}
	return ""
}

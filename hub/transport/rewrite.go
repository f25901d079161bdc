package transport

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/wire"
	"github.com/mark3labs/mcp-go/mcp"
)

// exposedNames turns the names a message to a service endpoint gives
// (tools/call's and prompts/get's params.name, a prompt reference's name in
// completion/complete) into the hub's exposed names. It returns the
// message unchanged when it names nothing, the name it replaced and the
// name put in its place. A message that does not decode is left for mcp-go
// to refuse.
func exposedNames(service string, msg []byte) (out []byte, old, exposed string) {
	m := wire.Peek(msg)
	var path []string
	switch {
	case m.Is(mcp.MethodToolsCall), m.Is(mcp.MethodPromptsGet):
		path = []string{"params", "name"}
	case m.Is(mcp.MethodCompletionComplete):
		ref := m.Param("ref")
		if !bytes.Contains(ref, []byte(`"ref/prompt"`)) {
			return msg, "", ""
		}
		path = []string{"params", "ref", "name"}
	default:
		return msg, "", ""
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(msg, &top) != nil {
		return msg, "", ""
	}
	rewritten, old, ok := replaceName(top, path, func(name string) string { return catalog.ExposedName(service, name) })
	if !ok {
		return msg, "", ""
	}
	b, err := json.Marshal(rewritten)
	if err != nil {
		return msg, "", ""
	}
	return b, old, catalog.ExposedName(service, old)
}

// replaceName replaces the string at path within obj (decoded one level
// at a time, so every other member keeps its bytes) with rename of it.
func replaceName(obj map[string]json.RawMessage, path []string, rename func(string) string) (map[string]json.RawMessage, string, bool) {
	raw, ok := obj[path[0]]
	if !ok {
		return nil, "", false
	}
	if len(path) == 1 {
		var name string
		if json.Unmarshal(raw, &name) != nil || name == "" {
			return nil, "", false
		}
		b, _ := json.Marshal(rename(name))
		obj[path[0]] = b
		return obj, name, true
	}
	var inner map[string]json.RawMessage
	if json.Unmarshal(raw, &inner) != nil {
		return nil, "", false
	}
	inner, name, ok := replaceName(inner, path[1:], rename)
	if !ok {
		return nil, "", false
	}
	b, err := json.Marshal(inner)
	if err != nil {
		return nil, "", false
	}
	obj[path[0]] = b
	return obj, name, true
}

// exposeRequest rewrites the body of an HTTP request to a service
// endpoint (exposedNames), and the Mcp-Name header that must match it.
func exposeRequest(r *http.Request, service string, body []byte) []byte {
	out, old, exposed := exposedNames(service, body)
	if old != "" && r.Header.Get(mcp.HeaderName) == old {
		r.Header.Set(mcp.HeaderName, exposed)
	}
	return out
}

// exposeLine rewrites one line from a stdio client of a service endpoint
// (exposedNames), keeping its end of line.
func exposeLine(service string, line []byte) []byte {
	body := bytes.TrimRight(line, "\r\n")
	out, old, _ := exposedNames(service, body)
	if old == "" {
		return line
	}
	return append(out, '\n')
}

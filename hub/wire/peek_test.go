package wire

import (
	"bytes"
	"encoding/json"
	"testing"
)

var peekCases = []string{
	`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"a__b","arguments":{"text":"}{\"]["}}}`,
	` { "params" : { "arguments" : [1, {"x": "y"}], "name" : "s__t" } , "method" : "tools/call" , "id" : "x\"y" } `,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r-1","reason":"gone"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"\\\"method\":\"x"}]}}`,
	`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
	`{"id":null,"method":null}`,
	`{"\u006dethod":"tools/call","params":{"name":"a"}}`,
	`{"method":"tools/call","method":"ping"}`,
	`{"method":"tools/call","params":{"na\u006de":"a","name":"b"}}`,
	`{"id":1e3,"method":"x","params":[]}`,
	`{}`,
	`[{"method":"tools/call"}]`,
	`"tools/call"`,
	`{"method":"tools/call","params":{"name":"x\u00e9"}}`,
	`{"method":"tools\/call","params":{"name":"a\/b"}}`,
	`{"method":"tools/cal\u006c","params":{"name":"n"}}`,
}

// peekByDecoding is what peekMessage must agree with.
func peekByDecoding(msg []byte) (id, method, params string, name string) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return "", "", "", ""
	}
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(m.Params, &p)
	return string(m.ID), string(m.Method), string(m.Params), p.Name
}

func checkPeek(t *testing.T, msg string) {
	id, method, params, name := peekByDecoding([]byte(msg))
	if id == "" && method == "" && params == "" {
		return // not an object encoding/json reads: mcp-go refuses it
	}
	p := Peek([]byte(msg))
	if string(p.ID) != id || string(p.Method) != method || !bytes.Equal(p.Params, []byte(params)) {
		t.Errorf("peekMessage(%s) = id %s method %s params %s; encoding/json reads id %s method %s params %s", msg, p.ID, p.Method, p.Params, id, method, params)
	}
	var m string
	_ = json.Unmarshal([]byte(method), &m)
	if p.Is("tools/call") != (m == "tools/call") {
		t.Errorf("peekMessage(%s).is(tools/call) = %v, encoding/json reads the method %q", msg, p.Is("tools/call"), m)
	}
	if m == "tools/call" {
		if got := p.CalledTool(); got != name {
			t.Errorf("calledTool(%s) = %q, want %q", msg, got, name)
		}
	}
}

func TestPeekMessageAgreesWithDecoding(t *testing.T) {
	for _, c := range peekCases {
		checkPeek(t, c)
	}
}

func FuzzPeekMessage(f *testing.F) {
	for _, c := range peekCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		if !json.Valid([]byte(msg)) {
			Peek([]byte(msg)) // must not panic
			return
		}
		checkPeek(t, msg)
	})
}

// BenchmarkPeekCall is what the router reads of a tools/call before mcp-go
// decodes it.
func BenchmarkPeekCall(b *testing.B) {
	msg := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"github__create_issue","arguments":{"owner":"o","repo":"r","title":"A title","body":"` + string(bytes.Repeat([]byte("text "), 200)) + `"}}}`)
	b.ReportAllocs()
	for b.Loop() {
		m := Peek(msg)
		_ = m.CalledTool()
		_ = m.InitializeRoot()
	}
}

func TestRootFromURI(t *testing.T) {
	if RootFromURI("file:///home/dev/work/") != "/home/dev/work" || RootFromURI("https://x") != "" {
		t.Fatal("rootFromURI")
	}
}

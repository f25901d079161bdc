package wire

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestReadCallParams: a call's params read as encoding/json decodes them,
// by one walk when they hold only a name and arguments, the arguments a
// copy of the bytes they came in.
func TestReadCallParams(t *testing.T) {
	for _, c := range []struct {
		params, name, args string
		ok, task, meta     bool
	}{
		{params: `{"name":"a__echo","arguments":{ "n" : 9007199254740993 }}`, name: "a__echo", args: `{ "n" : 9007199254740993 }`, ok: true},
		{params: `{"NAME":"a__echo"}`, name: "a__echo", ok: true},
		{params: `{"name":"a\u005f_echo","arguments":[1]}`, name: "a__echo", args: `[1]`, ok: true},
		{params: `{"n\u0061me":"a__echo","arguments":{}}`, name: "a__echo", args: `{}`, ok: true},
		{params: `{"name":"a__echo","task":{"ttl":5},"_meta":{"progressToken":1},"arguments":{}}`, name: "a__echo", args: `{}`, ok: true, task: true, meta: true},
		{params: `{"name":5}`},
		{params: `[]`},
	} {
		params := []byte(c.params)
		p, ok := ReadCallParams(params)
		if ok != c.ok || p.Name != c.name || string(p.Arguments) != c.args || (p.Task != nil) != c.task || (p.Meta != nil) != c.meta {
			t.Errorf("ReadCallParams(%s) = %+v, %v", c.params, p, ok)
		}
		clear(params)
		if string(p.Arguments) != c.args {
			t.Errorf("ReadCallParams(%s): the arguments changed with the params' bytes: %s", c.params, p.Arguments)
		}
	}
}

// TestCallParamsEncode: the params the hub sends upstream hold the
// client's arguments as sent (on one line), the tool's own name and the
// members the call carries; none when the client sent no arguments.
func TestCallParamsEncode(t *testing.T) {
	for _, c := range []struct {
		p    CallParams
		want string
	}{
		{CallParams{Name: "echo", Arguments: json.RawMessage(`{ "n" : 9007199254740993, "s": "<&>" }`)},
			`{"arguments":{ "n" : 9007199254740993, "s": "<&>" },"name":"echo"}`},
		{CallParams{Name: "echo", Arguments: json.RawMessage("{\n\"a\": 1\n}"), Meta: &mcp.Meta{ProgressToken: "h-1"}},
			`{"arguments":{"a":1},"name":"echo","_meta":{"progressToken":"h-1"}}`},
		{CallParams{Name: "echo", Task: &mcp.TaskParams{}}, `{"name":"echo","task":{}}`},
		{CallParams{Name: "echo"}, `{"name":"echo"}`},
		{CallParams{Name: `a<b&"é`, Arguments: json.RawMessage(`{}`)}, `{"arguments":{},"name":"a\u003cb\u0026\"é"}`},
		{CallParams{Name: "echo", MultiRoundTripParams: mcp.MultiRoundTripParams{RequestState: "s"}}, `{"name":"echo","requestState":"s"}`},
	} {
		got, err := c.p.Encode()
		if err != nil || string(got) != c.want {
			t.Errorf("encode = %s, %v; want %s", got, err, c.want)
		}
		if !json.Valid(got) {
			t.Errorf("encode = %s: not JSON", got)
		}
	}
	if got, err := (CallParams{Name: "x", Arguments: json.RawMessage("{\n")}).Encode(); err == nil {
		t.Errorf("encode of broken arguments = %s; want an error", got)
	}
}

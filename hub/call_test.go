package hub

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestServiceErrorNamesTheServiceOnce: an upstream's error, already
// prefixed by the upstream package or not, names the service exactly once.
func TestServiceErrorNamesTheServiceOnce(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{errors.New("github: tools/call x: no answer within the 60s timeout"), "github: tools/call x: no answer within the 60s timeout"},
		{errors.New("connection refused"), "github: connection refused"},
		{fmt.Errorf("wrapped: %w", &rpc.RPCError{Code: -32602, Message: "unknown tool"}), "github: unknown tool (JSON-RPC error -32602)"},
	} {
		if got := serviceError("github", tt.err); got != tt.want {
			t.Errorf("serviceError(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

// TestCallParamsEncode: the params the hub sends upstream hold the
// client's arguments as sent (on one line), the tool's own name and the
// members the call carries; none when the client sent no arguments.
func TestCallParamsEncode(t *testing.T) {
	for _, c := range []struct {
		p    callParams
		want string
	}{
		{callParams{Name: "echo", Arguments: json.RawMessage(`{ "n" : 9007199254740993, "s": "<&>" }`)},
			`{"arguments":{ "n" : 9007199254740993, "s": "<&>" },"name":"echo"}`},
		{callParams{Name: "echo", Arguments: json.RawMessage("{\n\"a\": 1\n}"), Meta: &mcp.Meta{ProgressToken: "h-1"}},
			`{"arguments":{"a":1},"name":"echo","_meta":{"progressToken":"h-1"}}`},
		{callParams{Name: "echo", Task: &mcp.TaskParams{}}, `{"name":"echo","task":{}}`},
	} {
		got, err := c.p.encode()
		if err != nil || string(got) != c.want {
			t.Errorf("encode = %s, %v; want %s", got, err, c.want)
		}
		if !json.Valid(got) {
			t.Errorf("encode = %s: not JSON", got)
		}
	}
	if got, err := (callParams{Name: "x", Arguments: json.RawMessage("{\n")}).encode(); err == nil {
		t.Errorf("encode of broken arguments = %s; want an error", got)
	}
}

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
		p, ok := readCallParams(params)
		if ok != c.ok || p.Name != c.name || string(p.Arguments) != c.args || (p.Task != nil) != c.task || (p.Meta != nil) != c.meta {
			t.Errorf("readCallParams(%s) = %+v, %v", c.params, p, ok)
		}
		clear(params)
		if string(p.Arguments) != c.args {
			t.Errorf("readCallParams(%s): the arguments changed with the params' bytes: %s", c.params, p.Arguments)
		}
	}
}

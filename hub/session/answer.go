package session

import (
	"bytes"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/hub/wire"
)

// mcp-go (v1.2.1) answers every error of a handler as -32603 and knows no
// way for a handler to give its own code or data: the call path leaves the
// error a request is to be answered with in the request's Reply, and the
// transport writes it in place of mcp-go's — in a JSON body with the HTTP
// status the 2026-07-28 revision gives its code, or in the SSE event that
// answers the request (decision 0205). The answers the hub writes itself
// are made by AnswerJSON.

// An errorAnswer is a JSON-RPC error answer, with the members as they came.
type errorAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *errorBody      `json:"error"`
}

type errorBody struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// resultAnswer is a JSON-RPC result answer.
type resultAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
}

// AnswerJSON returns the JSON-RPC answer of request id (as sent), on one
// line: the error e, or else the result res. A result goes in as it is
// (wire.OneLine): it is valid JSON already (SetResult), and encoding/json
// would scan all of it again — for a large result the largest cost of the
// call.
func AnswerJSON(id, res json.RawMessage, e *RPCError) ([]byte, error) {
	if e != nil {
		return json.Marshal(errorAnswer{JSONRPC: "2.0", ID: id, Error: &errorBody{Code: e.Code, Message: e.Message, Data: e.Data}})
	}
	return resultJSON(id, res)
}

// Answer runs answer and returns the JSON-RPC answer of request id, its
// result or its error (AnswerJSON). A result it cannot write is answered
// as an internal error, so the request is never left without an answer.
func Answer(id json.RawMessage, answer func() (json.RawMessage, *RPCError)) ([]byte, error) {
	res, e := answer()
	b, err := AnswerJSON(id, res, e)
	if err != nil && e == nil {
		return AnswerJSON(id, nil, &RPCError{Code: mcp.INTERNAL_ERROR, Message: "the result could not be written: " + err.Error()})
	}
	return b, err
}

// resultJSON encodes the result answer of request id: res (valid JSON,
// null when empty) as it is (wire.OneLine).
func resultJSON(id, res json.RawMessage) ([]byte, error) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	if len(res) == 0 {
		res = json.RawMessage("null")
	}
	res, err := wire.OneLine(res)
	if err != nil {
		return nil, err
	}
	const head, mid = `{"jsonrpc":"2.0","id":`, `,"result":`
	b := make([]byte, 0, len(head)+len(id)+len(mid)+len(res)+1)
	b = append(append(append(append(b, head...), id...), mid...), res...)
	return append(b, '}'), nil
}

// Rewritten is msg, one JSON-RPC message mcp-go wrote, with what r holds
// (Rewrite), or msg.
func (r *Reply) Rewritten(msg []byte) []byte {
	if b, _, ok := r.Rewrite(msg); ok {
		return bytes.TrimSpace(b)
	}
	return msg
}

// Rewrite returns msg, one JSON-RPC message mcp-go wrote, with the result
// or the error the call path left in r, and the error's code; ok is false
// when msg is no answer r changes or r holds nothing (msg is then kept as
// it is). A result replaces a result answer's; an error an error answer's
// members that it sets.
func (r *Reply) Rewrite(msg []byte) (out []byte, code int, ok bool) {
	if r == nil {
		return msg, 0, false
	}
	if res := r.Result(); res != nil {
		return rewriteResult(msg, res)
	}
	e, set := r.Error() // before looking at msg: most answers are results, and nothing was set
	if !set || !bytes.Contains(msg, []byte(`"error"`)) {
		return msg, 0, false
	}
	var a errorAnswer
	if json.Unmarshal(msg, &a) != nil || a.Error == nil {
		return msg, 0, false
	}
	if e.Code != 0 {
		a.Error.Code = e.Code
	}
	if e.Message != "" {
		a.Error.Message = e.Message
	}
	if e.Data != nil {
		a.Error.Data = e.Data
	}
	b, err := json.Marshal(a)
	if err != nil {
		return msg, 0, false
	}
	if bytes.HasSuffix(msg, []byte("\n")) {
		b = append(b, '\n')
	}
	return b, a.Error.Code, true
}

// RewriteEvent is Rewrite for one SSE event: the data line of the answer
// is replaced.
func (r *Reply) RewriteEvent(event []byte) []byte {
	for rest := event; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = nil
		}
		if data, found := bytes.CutPrefix(line, []byte("data:")); found {
			if b, _, ok := r.Rewrite(bytes.TrimSpace(data)); ok {
				before := event[:len(event)-len(rest)-len(line)]
				out := make([]byte, 0, len(event)+len(b))
				out = append(append(append(out, before...), "data: "...), b...)
				return append(append(out, '\n'), rest...)
			}
		}
	}
	return event
}

// rewriteResult returns msg, a JSON-RPC result answer mcp-go wrote, with
// res as its result (a task the hub made for a tools/call, decision 0211);
// an error answer is kept as it is.
func rewriteResult(msg []byte, res json.RawMessage) (out []byte, code int, ok bool) {
	var a resultAnswer
	if json.Unmarshal(msg, &a) != nil || a.Result == nil {
		return msg, 0, false
	}
	b, err := resultJSON(bytes.TrimSpace(a.ID), res)
	if err != nil {
		return msg, 0, false
	}
	if bytes.HasSuffix(msg, []byte("\n")) {
		b = append(b, '\n')
	}
	return b, 0, true
}

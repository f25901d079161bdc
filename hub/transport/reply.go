package transport

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/mark3labs/mcp-go/mcp"
)

// mcp-go (v1.2.1) answers every error of a handler as -32603 and knows no
// way for a handler to give its own code or data: the call path leaves the
// error a request is to be answered with in the request's session.Reply,
// and the outbound writer writes it in place of mcp-go's — in a JSON body
// with the HTTP status the 2026-07-28 revision gives its code, or in the
// SSE event that answers the request (decision 0205).

// replyOf returns the Reply of a request's context, and whether the
// request is of the 2026-07-28 revision (whose error status follows the
// code).
func replyOf(r *http.Request) (*session.Reply, bool) {
	rep := session.ReplyOf(r.Context())
	return rep, rep != nil && mcp.IsModernProtocol(r.Header.Get("MCP-Protocol-Version"))
}

// rewritten is msg with the error the call path left in rep, or msg.
func rewritten(msg []byte, rep *session.Reply) []byte {
	if b, _, ok := rewriteAnswer(msg, rep); ok {
		return bytes.TrimSpace(b)
	}
	return msg
}

// rpcAnswer is a JSON-RPC error answer, with the members as they came.
type rpcAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *rpcErrorBody   `json:"error"`
}

type rpcErrorBody struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// rewriteAnswer returns msg, one JSON-RPC message mcp-go wrote, with the
// error the call path left in rep, and the error's code; ok is false when
// msg is no error answer or rep holds nothing (msg is then kept as it is).
func rewriteAnswer(msg []byte, rep *session.Reply) (out []byte, code int, ok bool) {
	if rep == nil {
		return msg, 0, false
	}
	if res := rep.Result(); res != nil {
		return rewriteResult(msg, res)
	}
	e, set := rep.Error() // before looking at msg: most answers are results, and nothing was set
	if !set || !bytes.Contains(msg, []byte(`"error"`)) {
		return msg, 0, false
	}
	var a rpcAnswer
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

// rewriteEvent is rewriteAnswer for one SSE event: the data line of the
// error answer is replaced.
func rewriteEvent(event []byte, rep *session.Reply) []byte {
	for rest := event; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = nil
		}
		if data, found := bytes.CutPrefix(line, []byte("data:")); found {
			if b, _, ok := rewriteAnswer(bytes.TrimSpace(data), rep); ok {
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
	var a struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
	}
	if json.Unmarshal(msg, &a) != nil || a.Result == nil {
		return msg, 0, false
	}
	a.Result = res
	b, err := json.Marshal(a)
	if err != nil {
		return msg, 0, false
	}
	if bytes.HasSuffix(msg, []byte("\n")) {
		b = append(b, '\n')
	}
	return b, 0, true
}

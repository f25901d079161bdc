package session

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestRewriteEvent replaces the error answer of an SSE stream, and only
// it, with the error the call path left, keeping the id and what mcp-go
// set that the call path did not.
func TestRewriteEvent(t *testing.T) {
	rep := new(Reply)
	ctx := WithReply(context.Background(), rep)
	progress := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n"
	answer := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32603,\"message\":\"conf: refused\"}}\n\n"
	if got := string(rep.RewriteEvent([]byte(answer))); got != answer {
		t.Errorf("with nothing left by the call path the answer became %q", got)
	}
	SetError(ctx, RPCError{Code: -32021, Data: json.RawMessage(`{"requiredCapabilities":{"sampling":{}}}`)})
	if got := string(rep.RewriteEvent([]byte(progress))); got != progress {
		t.Errorf("a notification became %q", got)
	}
	want := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32021,\"message\":\"conf: refused\",\"data\":{\"requiredCapabilities\":{\"sampling\":{}}}}}\n\n"
	if got := string(rep.RewriteEvent([]byte(answer))); got != want {
		t.Errorf("the answer became\n%q, want\n%q", got, want)
	}
	if got, _, ok := rep.Rewrite([]byte(`{"jsonrpc":"2.0","id":7,"result":{}}`)); ok || !strings.Contains(string(got), "result") {
		t.Errorf("a result was rewritten: %s", got)
	}
}

// TestRewriteResult writes the result the call path left (a task the hub
// made) in place of mcp-go's, in the answer alone: notifications and
// requests on the same stream are kept.
func TestRewriteResult(t *testing.T) {
	rep := new(Reply)
	SetResult(WithReply(context.Background(), rep), json.RawMessage(`{"task":{"taskId":"h.m","status":"working"}}`))
	progress := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tasks/status\",\"params\":{\"taskId\":\"h.m\"}}\n\n"
	if got := string(rep.RewriteEvent([]byte(progress))); got != progress {
		t.Errorf("a notification became %q", got)
	}
	answer := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[]}}\n\n"
	want := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"task\":{\"taskId\":\"h.m\",\"status\":\"working\"}}}\n\n"
	if got := string(rep.RewriteEvent([]byte(answer))); got != want {
		t.Errorf("the answer became\n%q, want\n%q", got, want)
	}
	refused := `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"x"}}` + "\n"
	if got, _, ok := rep.Rewrite([]byte(refused)); ok || string(got) != refused {
		t.Errorf("an error answer was rewritten: %s", got)
	}
}

// TestAnswer: the answers the hub writes itself carry the request's id as
// sent, and the error's members or the result as given.
func TestAnswer(t *testing.T) {
	b, _ := AnswerJSON(json.RawMessage(`"a-1"`), json.RawMessage(`{"content":[],"x-vendor":1}`), nil)
	if got, want := string(b), `{"jsonrpc":"2.0","id":"a-1","result":{"content":[],"x-vendor":1}}`; got != want {
		t.Errorf("result answer %s, want %s", got, want)
	}
	b, _ = AnswerJSON(json.RawMessage(`9007199254740993`), nil, &RPCError{Code: -32602, Message: "no tool x"})
	if got, want := string(b), `{"jsonrpc":"2.0","id":9007199254740993,"error":{"code":-32602,"message":"no tool x"}}`; got != want {
		t.Errorf("error answer %s, want %s", got, want)
	}
	// Encoded, a result goes in as it is, on one line.
	for _, c := range []struct{ res, want string }{
		{`{"text":"<b>&</b>", "n":9007199254740993}`, `{"jsonrpc":"2.0","id":"a-1","result":{"text":"<b>&</b>", "n":9007199254740993}}`},
		{"{\n  \"a\": [1,\r\n 2]\n}", `{"jsonrpc":"2.0","id":"a-1","result":{"a":[1,2]}}`},
		{``, `{"jsonrpc":"2.0","id":"a-1","result":null}`},
	} {
		if b, err := AnswerJSON(json.RawMessage(`"a-1"`), json.RawMessage(c.res), nil); err != nil || string(b) != c.want {
			t.Errorf("AnswerJSON of %q = %s, %v; want %s", c.res, b, err, c.want)
		}
	}
	if b, err := AnswerJSON(nil, json.RawMessage("{\n"), nil); err == nil {
		t.Errorf("AnswerJSON of a broken result with a line break = %s; want an error", b)
	}
	if b, _ := AnswerJSON(json.RawMessage(`7`), json.RawMessage(`{}`), &RPCError{Code: -32602, Message: "no tool x"}); string(b) != `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"no tool x"}}` {
		t.Errorf("AnswerJSON of an error = %s", b)
	}
	var none *Reply
	if got := string(none.Rewritten([]byte(`{"id":1,"error":{}}`))); got != `{"id":1,"error":{}}` {
		t.Errorf("no Reply rewrote the answer: %s", got)
	}
}

// TestAnswerRuns: a request's answer is its result as it came, or its error;
// a result that cannot be written (broken JSON across lines) is answered
// with an internal error, never left without an answer.
func TestAnswerRuns(t *testing.T) {
	answered := func(res string, e *RPCError) func() (json.RawMessage, *RPCError) {
		return func() (json.RawMessage, *RPCError) { return json.RawMessage(res), e }
	}
	for _, c := range []struct {
		res  string
		e    *RPCError
		want string
	}{
		{`{"content":[]}`, nil, `{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`},
		{``, &RPCError{Code: -32602, Message: "no tool x"}, `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"no tool x"}}`},
	} {
		if b, err := Answer(json.RawMessage(`3`), answered(c.res, c.e)); err != nil || string(b) != c.want {
			t.Errorf("Answer = %s, %v; want %s", b, err, c.want)
		}
	}
	b, err := Answer(json.RawMessage(`3`), answered("{\n", nil))
	if err != nil || !strings.HasPrefix(string(b), `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"the result could not be written: `) {
		t.Errorf("a result that cannot be written was answered %s, %v; want an internal error", b, err)
	}
}

package transport

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/hub/session"
)

// TestAnswerJSON: a request's answer is its result as it came, or its
// error; a result that cannot be written (broken JSON across lines) is
// answered with an internal error, never left without an answer.
func TestAnswerJSON(t *testing.T) {
	answered := func(res string, e *session.RPCError) func() (json.RawMessage, *session.RPCError) {
		return func() (json.RawMessage, *session.RPCError) { return json.RawMessage(res), e }
	}
	for _, c := range []struct {
		res  string
		e    *session.RPCError
		want string
	}{
		{`{"content":[]}`, nil, `{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`},
		{``, &session.RPCError{Code: -32602, Message: "no tool x"}, `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"no tool x"}}`},
	} {
		if b, err := answerJSON(json.RawMessage(`3`), answered(c.res, c.e)); err != nil || string(b) != c.want {
			t.Errorf("answerJSON = %s, %v; want %s", b, err, c.want)
		}
	}
	b, err := answerJSON(json.RawMessage(`3`), answered("{\n", nil))
	if err != nil || !strings.HasPrefix(string(b), `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"the result could not be written: `) {
		t.Errorf("a result that cannot be written was answered %s, %v; want an internal error", b, err)
	}
}

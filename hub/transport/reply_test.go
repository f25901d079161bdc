package transport

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/hub/session"
)

// TestRewriteEvent replaces the error answer of an SSE stream, and only
// it, with the error the call path left, keeping the id and what mcp-go
// set that the call path did not.
func TestRewriteEvent(t *testing.T) {
	rep := new(session.Reply)
	ctx := session.WithReply(context.Background(), rep)
	progress := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n"
	answer := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32603,\"message\":\"conf: refused\"}}\n\n"
	if got := string(rewriteEvent([]byte(answer), rep)); got != answer {
		t.Errorf("with nothing left by the call path the answer became %q", got)
	}
	session.SetError(ctx, session.RPCError{Code: -32021, Data: json.RawMessage(`{"requiredCapabilities":{"sampling":{}}}`)})
	if got := string(rewriteEvent([]byte(progress), rep)); got != progress {
		t.Errorf("a notification became %q", got)
	}
	want := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32021,\"message\":\"conf: refused\",\"data\":{\"requiredCapabilities\":{\"sampling\":{}}}}}\n\n"
	if got := string(rewriteEvent([]byte(answer), rep)); got != want {
		t.Errorf("the answer became\n%q, want\n%q", got, want)
	}
	if got, _, ok := rewriteAnswer([]byte(`{"jsonrpc":"2.0","id":7,"result":{}}`), rep); ok || !strings.Contains(string(got), "result") {
		t.Errorf("a result was rewritten: %s", got)
	}
}

// TestRewriteResult writes the result the call path left (a task the hub
// made) in place of mcp-go's, in the answer alone: notifications and
// requests on the same stream are kept.
func TestRewriteResult(t *testing.T) {
	rep := new(session.Reply)
	session.SetResult(session.WithReply(context.Background(), rep), json.RawMessage(`{"task":{"taskId":"h.m","status":"working"}}`))
	progress := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tasks/status\",\"params\":{\"taskId\":\"h.m\"}}\n\n"
	if got := string(rewriteEvent([]byte(progress), rep)); got != progress {
		t.Errorf("a notification became %q", got)
	}
	answer := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[]}}\n\n"
	want := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"task\":{\"taskId\":\"h.m\",\"status\":\"working\"}}}\n\n"
	if got := string(rewriteEvent([]byte(answer), rep)); got != want {
		t.Errorf("the answer became\n%q, want\n%q", got, want)
	}
	refused := `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"x"}}` + "\n"
	if got, _, ok := rewriteAnswer([]byte(refused), rep); ok || string(got) != refused {
		t.Errorf("an error answer was rewritten: %s", got)
	}
}

package transport

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// TestOutboundSSEEvents checks that the filter sees each SSE event whole,
// however mcp-go's writes cut the stream, and that a writer lets go of its
// response once detached.
func TestOutboundSSEEvents(t *testing.T) {
	h := New(Core{Sessions: session.NewRegistry(), Keep: func(cs *session.Session, m wire.Message) bool {
		_, list := m.ListKind()
		return !list || cs != nil // a session it does not know never listed anything
	}})
	changed := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n"
	result := "event: message\r\nid: 3\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n\r\n"
	stream := changed + result + changed + result
	for _, cut := range [][]int{{len(stream)}, {5, len(changed), len(changed) + 7, len(stream) - 1, len(stream)}, {1, 2, 3, len(stream)}} {
		rec := httptest.NewRecorder()
		rec.Header().Set("Content-Type", "text/event-stream")
		o := h.outbound(rec, "s1")
		o.WriteHeader(http.StatusOK)
		from := 0
		for _, to := range cut {
			if n, err := o.Write([]byte(stream[from:to])); err != nil || n != to-from {
				t.Fatalf("write %d bytes: %d, %v", to-from, n, err)
			}
			from = to
		}
		if got, want := rec.Body.String(), result+result; got != want {
			t.Errorf("writes cut at %v: the client got %q, want %q (no list_changed before a list)", cut, got, want)
		}
		o.detach()
		if _, err := o.Write([]byte(result)); err == nil {
			t.Error("a write after detach succeeded")
		}
	}
}

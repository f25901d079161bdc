package poll

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	clientsession "github.com/chronicle-dev/chronicle/hub/session"
)

type pollRecorder struct{ polls int }

func (p *pollRecorder) Notify(string, any) bool { return false }
func (p *pollRecorder) Poll() bool              { p.polls++; return true }

type cannedSSE string

func (c cannedSSE) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(strings.NewReader(string(c)))}, nil
}

// TestPollingPassesThrough: an upstream's stream of a call that ends after
// an event id and before the response makes the call's client stream
// poll, once, and its retry field is shortened; a stream that carried the
// response does not.
func TestPollingPassesThrough(t *testing.T) {
	for _, tc := range []struct {
		name, stream string
		polls        int
	}{
		{"ended before the response", "id: a1\nretry: 5000\ndata: \n\n", 1},
		{"answered", "id: a1\nretry: 5000\ndata: \n\nid: a2\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"c1\",\"result\":{}}\n\n", 0},
		{"no event id", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &pollRecorder{}
			req, _ := http.NewRequestWithContext(clientsession.WithStream(context.Background(), rec), http.MethodPost, "http://upstream/mcp", nil)
			resp, err := Transport{cannedSSE(tc.stream)}.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if rec.polls != tc.polls {
				t.Errorf("%d polls, want %d", rec.polls, tc.polls)
			}
			if strings.Contains(string(b), "retry: 5000") || !strings.Contains(string(b), "retry: 0\n") && strings.Contains(tc.stream, "retry:") {
				t.Errorf("the retry field reached mcp-go's client unchanged: %q", b)
			}
		})
	}
}

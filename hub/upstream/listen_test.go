package upstream

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/chronicle-dev/chronicle/internal/waitfor"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// noStandaloneStream refuses the session revisions' GET stream, so that a
// change the server announces reaches the hub only on a 2026-07-28 listen
// stream.
func noStandaloneStream(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			http.Error(w, "no standalone stream", http.StatusMethodNotAllowed)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ackWatch passes a listen stream through and says when the server has
// written its acknowledgement: a change made after it is announced there.
type ackWatch struct {
	http.ResponseWriter
	acked chan<- struct{}
	once  sync.Once
}

func (w *ackWatch) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	if bytes.Contains(b, []byte(mcp.MethodNotificationSubscriptionsAcknowledged)) {
		w.once.Do(func() { close(w.acked) })
	}
	return n, err
}

func (w *ackWatch) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// TestModernListChangedReachesTheHub: the hub holds a subscriptions/listen
// stream to an upstream it reaches in the 2026-07-28 revision, and a tool
// the upstream adds, announced only there, is listed again and reported
// as a change, as a session's list_changed is.
func TestModernListChangedReachesTheHub(t *testing.T) {
	s := server.NewMCPServer("listening", "1.0.0", server.WithToolCapabilities(true))
	addTestTools(s)
	h := server.NewStreamableHTTPServer(s)
	acked := make(chan struct{})
	var first sync.Once
	ts := httptest.NewServer(noStandaloneStream(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Method") == string(mcp.MethodSubscriptionsListen) {
			first.Do(func() { w = &ackWatch{ResponseWriter: w, acked: acked} })
		}
		h.ServeHTTP(w, r)
	})))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	changed := make(chan string, 4)
	p, _ := newTestPool(t, PoolOptions{OnChange: func(name string) { changed <- name }}, httpSpec("listening", ts.URL+"/mcp"))
	ctx := testContext(t)
	u := p.Get("listening")
	if _, err := u.Catalog(ctx); err != nil {
		t.Fatal(err)
	}
	waitfor.Receive(t, acked, "the upstream's acknowledgement of the hub's subscriptions/listen")

	s.AddTool(mcp.NewTool("added"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("added"), nil
	})
	if name := waitChange(t, changed, "a tools/list_changed on the listen stream"); name != "listening" {
		t.Errorf("OnChange(%q), want listening", name)
	}
	c, err := u.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := toolNamed(c, "added"); !ok {
		t.Errorf("the catalog after the change lacks the added tool: %v", c.Tools)
	}
}

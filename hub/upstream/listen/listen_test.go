package listen

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func keep(s string) string { return s }

// hold runs Hold and fails the test if it does not return by the deadline.
func hold(t *testing.T, ctx context.Context, s Stream) {
	t.Helper()
	done := make(chan struct{})
	go func() { s.Hold(ctx); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Hold did not return")
	}
}

// TestHoldDelivers: a stream of JSON values (the reference server's) and
// an event stream both deliver their notifications, and the request asks
// for the filter with the revision's headers and the _meta given.
func TestHoldDelivers(t *testing.T) {
	for _, sse := range []bool{false, true} {
		t.Run(fmt.Sprintf("sse=%v", sse), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			asked := make(chan string, 1)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				asked <- r.Header.Get("Mcp-Method") + " " + r.Header.Get("Mcp-Protocol-Version") + " " + r.Header.Get("X-Service") + " " + string(b)
				frames := []string{
					`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true}}}`,
					`{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}}`,
				}
				if sse {
					w.Header().Set("Content-Type", "text/event-stream")
				} else {
					w.Header().Set("Content-Type", "application/json")
				}
				for _, f := range frames {
					if sse {
						f = "event: message\ndata: " + f + "\n\n"
					} else {
						f += "\n"
					}
					_, _ = io.WriteString(w, f)
				}
				w.(http.Flusher).Flush()
				<-r.Context().Done()
			}))
			defer func() { ts.CloseClientConnections(); ts.Close() }()
			got := make(chan string, 4)
			s := Stream{URL: ts.URL, Header: map[string]string{"X-Service": "conf"}, Filter: mcp.SubscriptionFilter{ToolsListChanged: true},
				Meta: map[string]any{"k": "v"}, Notify: func(n mcp.JSONRPCNotification) {
					if n.Method == "notifications/tools/list_changed" {
						cancel()
					}
					got <- n.Method
				}, Logger: quiet(), Mask: keep}
			hold(t, ctx, s)
			var req struct {
				Method string `json:"method"`
				Params struct {
					Notifications mcp.SubscriptionFilter `json:"notifications"`
					Meta          map[string]any         `json:"_meta"`
				} `json:"params"`
			}
			a := <-asked
			if want := "subscriptions/listen 2026-07-28 conf "; len(a) < len(want) || a[:len(want)] != want ||
				json.Unmarshal([]byte(a[len(want):]), &req) != nil || req.Method != "subscriptions/listen" ||
				!req.Params.Notifications.ToolsListChanged || req.Params.Notifications.PromptsListChanged || req.Params.Meta["k"] != "v" {
				t.Errorf("the listen request: %s", a)
			}
			if m := <-got; m != "notifications/subscriptions/acknowledged" {
				t.Errorf("first notification %s", m)
			}
			if m := <-got; m != "notifications/tools/list_changed" {
				t.Errorf("second notification %s", m)
			}
		})
	}
}

// TestHoldGivesUp: an upstream that refuses every stream is asked again
// a bounded number of times, and then left alone.
func TestHoldGivesUp(t *testing.T) {
	var n atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.Error(w, "no", http.StatusBadRequest)
	}))
	defer ts.Close()
	hold(t, context.Background(), Stream{URL: ts.URL, Filter: mcp.SubscriptionFilter{PromptsListChanged: true},
		Notify: func(mcp.JSONRPCNotification) {}, Logger: quiet(), Mask: keep})
	if got := n.Load(); got != maxRefusals+1 {
		t.Errorf("%d listen requests, want %d", got, maxRefusals+1)
	}
}

// TestHoldAsksNothing: an upstream that announces no list changes gets no
// stream.
func TestHoldAsksNothing(t *testing.T) {
	hold(t, context.Background(), Stream{URL: "http://127.0.0.1:1/unused", Filter: Filter(capsOf(t, `{"tools":{}}`)), Logger: quiet(), Mask: keep})
}

func TestFilter(t *testing.T) {
	f := Filter(capsOf(t, `{"tools":{"listChanged":true},"prompts":{},"resources":{"listChanged":true}}`))
	if !f.ToolsListChanged || f.PromptsListChanged || !f.ResourcesListChanged {
		t.Errorf("Filter = %+v", f)
	}
}

func capsOf(t *testing.T, s string) mcp.ServerCapabilities {
	t.Helper()
	var c mcp.ServerCapabilities
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		t.Fatal(err)
	}
	return c
}

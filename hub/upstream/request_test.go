package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// blockingServer has a tool that waits until its request is cancelled and
// reports that it was, and a tool that asks the client for sampling.
func blockingServer(started, cancelled chan<- struct{}) *server.MCPServer {
	s := server.NewMCPServer("blocking", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("wait"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		started <- struct{}{}
		<-ctx.Done()
		cancelled <- struct{}{}
		return nil, ctx.Err()
	})
	s.AddTool(mcp.NewTool("ask"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var req mcp.CreateMessageRequest
		req.Messages = []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("hi")}}
		req.MaxTokens = 5
		//lint:ignore SA1019 sampling is what this upstream exercises
		res, err := server.ServerFromContext(ctx).RequestSampling(ctx, req)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		b, _ := json.Marshal(res)
		return mcp.NewToolResultText(string(b)), nil
	})
	return s
}

// TestCancelReachesHTTPUpstream: a request the client gives up on is
// cancelled at the upstream over Streamable HTTP too, by the request's own
// id (mcp-go's client would not send it on HTTP).
func TestCancelReachesHTTPUpstream(t *testing.T) {
	started, cancelled := make(chan struct{}, 1), make(chan struct{}, 1)
	notices := make(chan string, 4)
	srv := server.NewStreamableHTTPServer(blockingServer(started, cancelled))
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			if strings.Contains(string(body), `"notifications/cancelled"`) {
				notices <- string(body)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	spec := service.Service{Name: "remote", Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(ts.URL + "/mcp")}, Enabled: true}
	p, _ := newTestPool(t, PoolOptions{}, spec)

	ctx, cancel := context.WithCancel(testContext(t))
	errc := make(chan error, 1)
	go func() {
		_, err := p.Get("remote").Request(ctx, "a client", "tools/call", map[string]any{"name": "wait"})
		errc <- err
	}()
	waitfor.Receive(t, started, "the upstream to start the call")
	cancel()
	if err := waitfor.Receive(t, errc, "the cancelled request to return"); !errors.Is(err, context.Canceled) {
		t.Errorf("the cancelled request: %v", err)
	}
	waitfor.Receive(t, cancelled, "the upstream's handler to see its request cancelled")
	// …and was told so by a notifications/cancelled naming the request's
	// own id, not only by the connection closing.
	if n := waitfor.Receive(t, notices, "a notifications/cancelled"); !strings.Contains(n, `"requestId":"chronicle-`) {
		t.Errorf("notifications/cancelled does not name the request: %s", n)
	}
}

// TestServerRequestsGoToTheCaller: a sampling request the upstream makes
// during a call reaches OnRequest with that call's caller; with no call in
// flight, or refused by the service, it is a named error.
func TestServerRequestsGoToTheCaller(t *testing.T) {
	ts := httptest.NewServer(server.NewStreamableHTTPServer(blockingServer(make(chan struct{}, 1), make(chan struct{}, 1))))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	asked := make(chan any, 1)
	onRequest := func(_ context.Context, service string, caller any, method string, _ json.RawMessage) (json.RawMessage, error) {
		asked <- caller
		return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"answered"},"model":"m"}`), nil
	}
	spec := service.Service{Name: "remote", Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(ts.URL + "/mcp")}, Enabled: true}
	refusing := spec
	refusing.Name, refusing.RefuseSampling = "refusing", true
	p, _ := newTestPool(t, PoolOptions{OnRequest: onRequest}, spec, refusing)

	raw, err := p.Get("remote").Request(testContext(t), "caller-1", "tools/call", map[string]any{"name": "ask"})
	if err != nil || !strings.Contains(string(raw), "answered") {
		t.Fatalf("sampling through the caller: %s %v", raw, err)
	}
	if who := waitfor.Receive(t, asked, "the sampling request to reach OnRequest"); who != "caller-1" {
		t.Errorf("the request was attributed to %v", who)
	}
	raw, err = p.Get("refusing").Request(testContext(t), "caller-2", "tools/call", map[string]any{"name": "ask"})
	if err != nil || !strings.Contains(string(raw), "allow_sampling = false") {
		t.Errorf("a service that may not sample: %s %v", raw, err)
	}
}

package hub

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/service"
)

// refusingUpstream is an mcp-go server over Streamable HTTP that speaks
// both eras, with a tool needs_sampling that a 2026-07-28 request without
// the sampling capability gets refused as the revision says: HTTP 400 and
// MissingRequiredClientCapability (-32021) naming the capability in data.
// (mcp-go's server cannot answer so from a handler, so a wrapper does.)
func refusingUpstream(t *testing.T) string {
	srv := server.NewMCPServer("strict", "1", server.WithToolCapabilities(false), server.WithResourceCapabilities(false, false))
	srv.AddTool(mcp.NewTool("needs_sampling"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("sampled"), nil
	})
	return interceptedUpstream(t, srv, func(w http.ResponseWriter, r *http.Request, req interceptedRequest) bool {
		if !mcp.IsModernProtocol(r.Header.Get("MCP-Protocol-Version")) || req.Method != "tools/call" || req.Params.Name != "needs_sampling" {
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32021,` +
			`"message":"MissingRequiredClientCapabilityError","data":{"requiredCapabilities":{"sampling":{}}}}}`))
		return true
	})
}

// An interceptedRequest is what interceptedUpstream's intercept is shown
// of a request.
type interceptedRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name string `json:"name"`
	} `json:"params"`
}

// interceptedUpstream serves srv over Streamable HTTP, but lets intercept
// answer a request first (it reports whether it did): how a test makes an
// upstream answer what mcp-go's handlers cannot.
func interceptedUpstream(t *testing.T, srv *server.MCPServer, intercept func(http.ResponseWriter, *http.Request, interceptedRequest) bool) string {
	mcpHTTP := server.NewStreamableHTTPServer(srv)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req interceptedRequest
		_ = json.Unmarshal(body, &req)
		if !intercept(w, r, req) {
			mcpHTTP.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	return ts.URL + "/mcp"
}

// postModern posts one 2026-07-28 request to url and returns the HTTP
// status and the JSON-RPC answer (the last message of an SSE stream).
func postModern(t *testing.T, ctx context.Context, url, method, name, params string) (int, map[string]any) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":41,"method":"` + method + `","params":` + params + `}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
		raw = []byte(strings.TrimPrefix(lines[len(lines)-1], "data: "))
	}
	var answer map[string]any
	if err := json.Unmarshal(raw, &answer); err != nil {
		t.Fatalf("%s: the answer %s is not JSON: %v", method, raw, err)
	}
	return resp.StatusCode, answer
}

// modernMeta is the _meta of a 2026-07-28 request from a client that
// declares no capabilities.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`

// TestUpstreamErrorPassesThrough calls through /mcp/service a tool whose
// 2026-07-28 upstream refuses a client that did not declare sampling: the
// client gets the upstream's own error — its code, message and data, the
// request's id — on the HTTP status the revision gives that code, not
// mcp-go's -32603 on 200.
func TestUpstreamErrorPassesThrough(t *testing.T) {
	base := serveHubFor(t, "strict", refusingUpstream(t))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	status, answer := postModern(t, ctx, base+"/mcp/service/strict", "tools/call", "needs_sampling",
		`{"name":"needs_sampling","arguments":{},`+modernMeta+`}`)
	e, _ := answer["error"].(map[string]any)
	data, _ := e["data"].(map[string]any)
	required, _ := data["requiredCapabilities"].(map[string]any)
	if status != http.StatusBadRequest || answer["id"] != float64(41) || e == nil || e["code"] != float64(mcp.MISSING_REQUIRED_CLIENT_CAPABILITY) ||
		e["message"] != "MissingRequiredClientCapabilityError" || required["sampling"] == nil {
		t.Errorf("HTTP %d %v; want HTTP 400 and the upstream's error -32021 with id 41 and data.requiredCapabilities.sampling", status, answer)
	}

	// The same tool through the aggregated endpoint, under its exposed name.
	status, answer = postModern(t, ctx, base+"/mcp", "tools/call", "strict__needs_sampling",
		`{"name":"strict__needs_sampling","arguments":{},`+modernMeta+`}`)
	if e, _ := answer["error"].(map[string]any); status != http.StatusBadRequest || e["code"] != float64(mcp.MISSING_REQUIRED_CLIENT_CAPABILITY) {
		t.Errorf("/mcp: HTTP %d %v; want HTTP 400 and -32021", status, answer)
	}
}

// TestResourceNotFoundNamesURI reads a resource nobody offers: the error
// names the URI in data.uri (SEP-2164), with -32602 in the 2026-07-28
// revision on HTTP 400.
func TestResourceNotFoundNamesURI(t *testing.T) {
	base := serveHubFor(t, "strict", refusingUpstream(t))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, path := range []string{"/mcp", "/mcp/service/strict"} {
		status, answer := postModern(t, ctx, base+path, "resources/read", "test://nowhere",
			`{"uri":"test://nowhere",`+modernMeta+`}`)
		e, _ := answer["error"].(map[string]any)
		data, _ := e["data"].(map[string]any)
		if status != http.StatusBadRequest || answer["id"] != float64(41) || e["code"] != float64(mcp.INVALID_PARAMS) || data["uri"] != "test://nowhere" {
			t.Errorf("%s: HTTP %d %v; want HTTP 400, -32602 with data.uri test://nowhere", path, status, answer)
		}
	}
}

// TestListenStreamToldOfListChanges opens a 2026-07-28 subscriptions/listen
// stream: it is acknowledged first, granting the list kinds it asked for
// (the hub announces every kind) and tagged with its id, and stays open;
// when the hub's lists change (a reload adds a service), the stream is told
// tools/list_changed, tagged too.
func TestListenStreamToldOfListChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	r := startHub(t, path)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The catalogue is built on a first list.
	if status, answer := postModern(t, ctx, r.url+"/mcp", "tools/list", "", `{`+modernMeta+`}`); status != http.StatusOK || answer["result"] == nil {
		t.Fatalf("tools/list: HTTP %d %v", status, answer)
	}

	next, tagged := openListen(t, ctx, r.url+"/mcp")

	ack := next("acknowledgement")
	params, _ := ack["params"].(map[string]any)
	granted, _ := params["notifications"].(map[string]any)
	if ack["method"] != "notifications/subscriptions/acknowledged" || !tagged(ack) || granted["toolsListChanged"] != true || granted["promptsListChanged"] != true {
		t.Fatalf("the first frame is %v; want the acknowledgement granting toolsListChanged and promptsListChanged, tagged 41", ack)
	}

	writeState(t, path, []service.Service{testService("alpha", "alpha", ""), testService("beta", "alpha", "")}, nil)
	if err := r.hub.Reload(); err != nil {
		t.Fatal(err)
	}
	for {
		m := next("tools/list_changed")
		if !tagged(m) {
			t.Errorf("a frame of the listen stream is not tagged with its subscription: %v", m)
		}
		if m["method"] == "notifications/tools/list_changed" {
			break
		}
	}
}

// openListen opens a 2026-07-28 subscriptions/listen stream (id 41) on url
// for tools and prompts, and returns the stream's next frame (failing the
// test when the stream ends or ctx does) and whether a frame is tagged
// with the stream's subscription.
func openListen(t *testing.T, ctx context.Context, url string) (next func(what string) map[string]any, tagged func(map[string]any) bool) {
	t.Helper()
	lctx, stop := context.WithCancel(ctx)
	t.Cleanup(stop)
	body := `{"jsonrpc":"2.0","id":41,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true,"promptsListChanged":true},` + modernMeta + `}}`
	req, _ := http.NewRequestWithContext(lctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	frames := make(chan map[string]any, 16)
	go func() {
		defer close(frames)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var m map[string]any
				if json.Unmarshal([]byte(data), &m) == nil {
					frames <- m
				}
			}
		}
	}()
	next = func(what string) map[string]any {
		t.Helper()
		select {
		case m, ok := <-frames:
			if !ok {
				t.Fatalf("the listen stream ended before %s", what)
			}
			return m
		case <-ctx.Done():
			t.Fatalf("no %s on the listen stream", what)
		}
		return nil
	}
	tagged = func(m map[string]any) bool {
		params, _ := m["params"].(map[string]any)
		meta, _ := params["_meta"].(map[string]any)
		return meta["io.modelcontextprotocol/subscriptionId"] == float64(41)
	}
	return next, tagged
}

// acked passes the first listen stream through and closes its channel
// when the server has written the acknowledgement: a change made after it
// is announced on that stream.
type acked struct {
	http.ResponseWriter
	done chan struct{}
	once *sync.Once
}

func (w acked) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	if bytes.Contains(b, []byte(mcp.MethodNotificationSubscriptionsAcknowledged)) {
		w.once.Do(func() { close(w.done) })
	}
	return n, err
}

func (w acked) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// TestUpstreamListChangeReachesListenStream: a tool a 2026-07-28 upstream
// adds, announced only on the listen stream the hub holds to it (the
// upstream offers no session-era stream), reaches a hub client's listen
// stream as tools/list_changed (decision 0206).
func TestUpstreamListChangeReachesListenStream(t *testing.T) {
	srv := server.NewMCPServer("changing", "1", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewTool("first"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("first"), nil
	})
	mcpHTTP := server.NewStreamableHTTPServer(srv)
	upstreamListens := make(chan struct{})
	var once sync.Once
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet:
			http.Error(w, "no standalone stream", http.StatusMethodNotAllowed)
			return
		case r.Header.Get("Mcp-Method") == "subscriptions/listen":
			w = acked{ResponseWriter: w, done: upstreamListens, once: &once}
		}
		mcpHTTP.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	url := serveHubFor(t, "changing", ts.URL+"/mcp")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if status, answer := postModern(t, ctx, url+"/mcp", "tools/list", "", `{`+modernMeta+`}`); status != http.StatusOK || answer["result"] == nil {
		t.Fatalf("tools/list: HTTP %d %v", status, answer)
	}
	select {
	case <-upstreamListens:
	case <-ctx.Done():
		t.Fatal("the hub opened no listen stream to the 2026-07-28 upstream")
	}
	next, _ := openListen(t, ctx, url+"/mcp")
	if ack := next("acknowledgement"); ack["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("the first frame is %v", ack)
	}

	srv.AddTool(mcp.NewTool("added"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("added"), nil
	})
	for next("tools/list_changed")["method"] != "notifications/tools/list_changed" {
	}
	_, answer := postModern(t, ctx, url+"/mcp", "tools/list", "", `{`+modernMeta+`}`)
	if b, _ := json.Marshal(answer); !bytes.Contains(b, []byte(`"changing__added"`)) && !bytes.Contains(b, []byte(`"added"`)) {
		t.Errorf("tools/list after the change lacks the added tool: %s", b)
	}
}

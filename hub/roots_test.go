package hub

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/hub/wire"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// gatedRoots answers roots/list with one folder, once the test lets it:
// asked tells the test it was asked.
type gatedRoots struct {
	root  string
	asked chan struct{}
	gate  chan struct{}
}

func (r gatedRoots) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	r.asked <- struct{}{}
	select {
	case <-r.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file://" + r.root, Name: "project"}}}, nil
}

// TestScopeFromClientRoots: a Streamable HTTP client that offers MCP roots
// is asked for them once initialized, and its project's services appear,
// announced by a list_changed.
func TestScopeFromClientRoots(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	project := filepath.Join(dir, "work", "api")
	writeState(t, path, []service.Service{testService("alpha", "alpha", ""), testService("beta", "beta", project)}, nil)
	r := startHub(t, path)

	//lint:ignore SA1019 the hub sends roots/list on the standalone GET stream of the 2025 revisions
	tr, err := transport.NewStreamableHTTP(r.url+"/mcp", transport.WithContinuousListening())
	if err != nil {
		t.Fatal(err)
	}
	roots := gatedRoots{root: project, asked: make(chan struct{}, 1), gate: make(chan struct{})}
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION), client.WithRootsHandler(roots))
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	changed := make(chan struct{}, 8)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationToolsListChanged) {
			changed <- struct{}{}
		}
	})
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.Capabilities.Roots = &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{}
	if _, err := c.Initialize(bounded(t), init); err != nil {
		t.Fatal(err)
	}
	// Listed while the client has not answered: no project service yet.
	waitfor.Receive(t, roots.asked, "the hub to ask for roots after notifications/initialized")
	if _, ok := toolNames(t, c)["beta__echo"]; ok {
		t.Fatal("the project service is listed before the client named its folder")
	}
	close(roots.gate)
	waitfor.Receive(t, changed, "a tools/list_changed once the client's roots were read")
	if _, ok := toolNames(t, c)["beta__echo"]; !ok {
		t.Fatal("the project service did not appear after the client's roots were read")
	}
}

// TestRootsAskedOnInitialized reads serve --stdio's output: the hub asks a
// client that offers roots for them only once the client sent
// notifications/initialized, and at once then (nothing to wait for), and
// takes the first root as the session's folder.
func TestRootsAskedOnInitialized(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	project := filepath.Join(dir, "work", "api")
	writeState(t, path, []service.Service{testService("alpha", "alpha", ""), testService("beta", "beta", project)}, nil)
	p := startStdio(t, newTestHub(t, path, Options{ListGrace: testGrace}))

	p.send(t, strings.Replace(initialize, `"capabilities":{}`, `"capabilities":{"roots":{}}`, 1))
	p.until(t, `"id":1`)
	// Before notifications/initialized the hub sends the client no request.
	p.send(t, `{"jsonrpc":"2.0","id":"l1","method":"tools/list"}`)
	for _, line := range p.until(t, `"id":"l1"`) {
		if strings.Contains(line, `"roots/list"`) {
			t.Fatalf("the hub asked for roots before notifications/initialized: %s", line)
		}
		if strings.Contains(line, "beta__echo") {
			t.Fatalf("the project service is listed before the client named its folder: %s", line)
		}
	}
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	ask := p.until(t, `"roots/list"`)
	m := wire.Peek([]byte(ask[len(ask)-1]))
	if len(m.ID) == 0 {
		t.Fatalf("roots/list without an id: %s", ask[len(ask)-1])
	}
	p.send(t, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{"roots":[{"uri":"file://`+project+`"}]}}`)
	// The session listed tools, so it is told they changed.
	p.until(t, `"notifications/tools/list_changed"`)
	p.send(t, `{"jsonrpc":"2.0","id":"l2","method":"tools/list"}`)
	if got := p.until(t, `"id":"l2"`); !strings.Contains(got[len(got)-1], "beta__echo") {
		t.Errorf("the project service is not listed after the client named its folder: %s", got[len(got)-1])
	}
}

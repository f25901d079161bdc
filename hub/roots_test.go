package hub

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

type fixedRoots string

func (r fixedRoots) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file://" + string(r), Name: "project"}}}, nil
}

// TestScopeFromClientRoots: a client that offers MCP roots is asked for them
// after initialize, and its project's services appear.
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
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION), client.WithRootsHandler(fixedRoots(project)))
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.Capabilities.Roots = &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{}
	if _, err := c.Initialize(context.Background(), init); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, ok := toolNames(t, c)["beta__echo"]; ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the project service did not appear after the client's roots were read")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

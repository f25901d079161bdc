package upstream

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/mark3labs/mcp-go/server"
)

// TestStreamableHTTPUpstream runs the Go test server over Streamable HTTP
// on loopback: raw schemas, calls and list_changed over the GET stream.
func TestStreamableHTTPUpstream(t *testing.T) {
	ts := httptest.NewServer(server.NewStreamableHTTPServer(newTestServer()))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	changed := make(chan string, 10)
	const token = "http-secret-token"
	spec := service.Service{
		Name:       "remote",
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Concat(secret.Literal(ts.URL+"/mcp?key="), secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "KEY"}))},
		Enabled:    true,
	}
	p, _ := newTestPool(t, PoolOptions{
		Resolver: resolverFor(map[string]string{"KEY": token}),
		OnChange: func(s string) { changed <- s },
	}, spec)
	ctx := testContext(t)
	u := p.Get("remote")
	c, err := u.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	route, ok := toolNamed(c, "plot_route")
	if !ok {
		t.Fatal("no plot_route")
	}
	sameJSON(t, route.RawInputSchema, []byte(richSchema))
	if r, err := u.CallTool(ctx, "echo", map[string]any{"message": "over http"}); err != nil || resultText(t, r) != "over http" {
		t.Fatalf("echo: %v", err)
	}
	assertToolAdded(t, u, changed)

	// A server that went away is an error that names the service and never
	// shows the secret in the URL.
	ts.CloseClientConnections() // ends the GET stream, which Close would wait for
	ts.Close()
	_, err = u.CallTool(ctx, "echo", map[string]any{"message": "gone"})
	t.Logf("call to a closed server: %v; status %+v", err, statusOf(p, "remote"))
	if err == nil || strings.Contains(err.Error(), token) || !strings.HasPrefix(err.Error(), "remote: ") {
		t.Errorf("call to a closed server: %v", err)
	}
	if st := statusOf(p, "remote"); strings.Contains(st.Error, token) {
		t.Errorf("status shows the secret: %+v", st)
	}
}

package hub

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	hubtransport "github.com/chronicle-dev/chronicle/hub/transport"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/hub/inspect"
)

// testService is a stdio service served by this test binary in mode.
func testService(name, mode, project string) service.Service {
	exe, _ := os.Executable()
	return service.Service{
		Name:       name,
		Definition: service.Definition{Transport: "stdio", Command: exe, Env: map[string]secret.Value{upstreamEnv: secret.Literal(mode)}},
		Enabled:    true,
		Project:    project,
		Timeout:    5 * time.Second,
	}
}

// writeState saves a state with services and policies, as apply would.
func writeState(t *testing.T, path string, services []service.Service, policies map[string]state.Policy) {
	t.Helper()
	st, err := state.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Services = map[string]service.Service{}
	for _, s := range services {
		st.Services[s.Name] = s
	}
	st.Policies = policies
	if st.Policies == nil {
		st.Policies = map[string]state.Policy{}
	}
	st.Hub = &state.Hub{Listen: "127.0.0.1:0"}
	if err := st.Save(path); err != nil {
		t.Fatal(err)
	}
}

type running struct {
	hub  *Hub
	url  string
	ctx  context.Context // ends when the test stops the hub
	stop func()
}

// startHub serves a hub for the state at path on a free loopback port.
func startHub(t *testing.T, path string) *running {
	t.Helper()
	h, err := New(Options{StatePath: path, Home: t.TempDir(), Version: "test", ListGrace: testGrace, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	r := serveHub(t, h)
	go func() { _ = h.WatchState(r.ctx) }()
	return r
}

// serveHub serves h on a free loopback port until the test ends.
func serveHub(t *testing.T, h *Hub) *running {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tok, err := h.EnsureToken()
	if err != nil {
		t.Fatal(err)
	}
	hubTokens.Store(ln.Addr().String(), tok)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = h.ServeHTTP(ctx, ln); close(done) }()
	r := &running{hub: h, url: "http://" + ln.Addr().String(), ctx: ctx, stop: func() {
		cancel()
		waitfor.Receive(t, done, "the hub to shut down")
		hubTokens.Delete(ln.Addr().String())
	}}
	t.Cleanup(r.stop)
	return r
}

// hubTokens maps the address of a hub a test serves to the token its
// management API requires, for the helpers that call /api as the console
// does (with the token as a header).
var hubTokens sync.Map

// withToken adds the token of the hub req goes to, unless req carries an
// Authorization header already. An empty one is sent empty: the request
// goes without a token.
func withToken(req *http.Request) *http.Request {
	if _, set := req.Header["Authorization"]; set {
		return req
	}
	if tok, ok := hubTokens.Load(req.URL.Host); ok {
		req.Header.Set("Authorization", "Bearer "+tok.(string))
	}
	return req
}

// testHTTP is the tests' HTTP client: a hub that never answers fails the
// test instead of hanging it.
var testHTTP = &http.Client{Timeout: hangGuard}

// bounded returns a context that ends after hangGuard, or with the test.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	t.Cleanup(cancel)
	return ctx
}

func connect(t *testing.T, url string, headers map[string]string, opts ...transport.StreamableHTTPCOption) *client.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url+"/mcp", append([]transport.StreamableHTTPCOption{transport.WithHTTPHeaders(headers)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	ctx := bounded(t)
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "hub-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func toolNames(t *testing.T, c *client.Client) map[string]mcp.Tool {
	t.Helper()
	res, err := c.ListTools(bounded(t), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]mcp.Tool{}
	for _, tl := range res.Tools {
		out[tl.Name] = tl
	}
	return out
}

func callText(t *testing.T, c *client.Client, name string, args map[string]any) (string, bool) {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(bounded(t), req)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return resultText(res), res.IsError
}

func TestHubAggregatesWithPoliciesAndScopes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	project := filepath.Join(dir, "work", "api")
	writeState(t, path, []service.Service{
		testService("alpha", "alpha", ""),
		testService("beta", "beta", project),
		{Name: "broken", Definition: service.Definition{Transport: "stdio", Command: filepath.Join(dir, "no-such-server")}, Enabled: true},
	}, map[string]state.Policy{"alpha": {DisabledTools: []string{"delete_*"}}})
	r := startHub(t, path)

	c := connect(t, r.url, nil)
	tools := toolNames(t, c)
	if _, ok := tools["alpha__echo"]; !ok {
		t.Fatalf("alpha__echo missing: %v", keys(tools))
	}
	if tl := tools["alpha__echo"]; !strings.HasPrefix(tl.Description, "[alpha] ") {
		t.Errorf("description not prefixed: %q", tl.Description)
	}
	if _, ok := tools["alpha__delete_everything"]; ok {
		t.Error("a tool disabled by policy is listed")
	}
	if _, ok := tools["beta__echo"]; ok {
		t.Error("a project service is offered outside its project")
	}
	for name := range tools {
		if len(name) > catalog.MaxToolName {
			t.Errorf("tool name %q is longer than 64", name)
		}
	}
	if _, ok := tools[catalog.ExposedName("alpha", LongToolName)]; !ok {
		t.Errorf("the 80-character tool is not offered under its shortened name: %v", keys(tools))
	}
	var got, want any
	json.Unmarshal(tools["alpha__schedule"].RawInputSchema, &got)
	if tools["alpha__schedule"].RawInputSchema == nil {
		b, _ := json.Marshal(tools["alpha__schedule"].InputSchema)
		json.Unmarshal(b, &got)
	}
	json.Unmarshal([]byte(rawSchema), &want)
	if gj, _ := json.Marshal(got); !strings.Contains(string(gj), `"$defs"`) {
		t.Errorf("the raw schema lost keys: %s", gj)
	}

	if text, isErr := callText(t, c, "alpha__echo", map[string]any{"text": "hi"}); isErr || text != "alpha:hi" {
		t.Errorf("echo through the hub: %q (error %v)", text, isErr)
	}
	if text, isErr := callText(t, c, "alpha__delete_everything", nil); !isErr || !strings.Contains(text, "disabled by a chronicle policy") {
		t.Errorf("a disabled tool was not refused with a tool error: %q", text)
	}
	blocked := false
	for _, rec := range r.hub.Inspector().Records() {
		if rec.Direction == inspect.DirBlocked {
			blocked = true
		}
	}
	if !blocked {
		t.Error("the refused call is not in the inspector as blocked")
	}

	// A client working in the project sees the project's service too.
	inProject := connect(t, r.url, map[string]string{hubtransport.RootHeader: filepath.Join(project, "src")})
	if _, ok := toolNames(t, inProject)["beta__echo"]; !ok {
		t.Error("the project service is not offered inside its project")
	}
	if text, _ := callText(t, inProject, "beta__echo", map[string]any{"text": "x"}); text != "beta:x" {
		t.Errorf("beta echo: %q", text)
	}

	// Prompts and resources are aggregated; a URI two services expose goes to
	// the first by name, and the collision shows in the status.
	prompts, err := c.ListPrompts(bounded(t), mcp.ListPromptsRequest{})
	if err != nil || len(prompts.Prompts) == 0 || prompts.Prompts[0].Name != "alpha__greet" {
		t.Errorf("prompts: %+v, %v", prompts, err)
	}
	var rr mcp.ReadResourceRequest
	rr.Params.URI = "test://shared"
	res, err := inProject.ReadResource(bounded(t), rr)
	if err != nil || len(res.Contents) != 1 || res.Contents[0].(mcp.TextResourceContents).Text != "shared from alpha" {
		t.Errorf("shared resource: %+v, %v", res, err)
	}

	// The broken upstream is reported, and did not blank the others.
	status := getJSON(t, r.url+"/api/status")
	var st struct {
		Services []console.ServiceStatus `json:"services"`
	}
	_ = json.Unmarshal([]byte(status), &st)
	for _, s := range st.Services {
		if s.Name == "alpha" && s.Tools != 3 {
			t.Errorf("status counts %d tools for alpha, which offers 3 (4 less the one its policy disables)", s.Tools)
		}
	}
	if !strings.Contains(status, `"name": "broken"`) || !strings.Contains(status, `"state": "failed"`) || !strings.Contains(status, "test://shared is exposed by alpha and beta") {
		t.Errorf("status does not show the broken upstream and the collision:\n%s", status)
	}
}

func getJSON(t *testing.T, url string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := testHTTP.Do(withToken(req))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return string(b)
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// TestLoopbackClientsNeedTheToken: a local process without the hub's
// token is refused on every MCP endpoint — 401 with a bearer challenge
// that names no OAuth metadata, and a message naming the token file and
// chronicle apply — and the OAuth discovery document is not there, so a
// client that speaks OAuth reports the missing token instead of starting a
// login. With the token, the same requests are served.
func TestLoopbackClientsNeedTheToken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	tokenFile := filepath.Join(t.TempDir(), ".chronicle", hubtoken.FileName)
	h, err := New(Options{StatePath: path, Home: t.TempDir(), Version: "test", ListGrace: testGrace, TokenFile: tokenFile, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	r := serveHub(t, h)
	none := map[string]string{"Authorization": ""}
	for _, rq := range []struct{ method, path, body string }{
		{"POST", "/mcp", initialize},
		{"POST", "/mcp?root=/tmp", initialize},
		{"POST", "/mcp/profile/any", initialize},
		{"GET", "/mcp", ""},
		{"DELETE", "/mcp", ""},
		{"GET", "/sse", ""},
		{"POST", "/message?sessionId=x", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
	} {
		code, body, hdr := do(t, rq.method, r.url+rq.path, none, rq.body)
		if code != http.StatusUnauthorized {
			t.Errorf("%s %s without the token: %d, want 401", rq.method, rq.path, code)
			continue
		}
		if got := hdr.Get("WWW-Authenticate"); got != `Bearer realm="chronicle"` {
			t.Errorf("%s %s: WWW-Authenticate %q", rq.method, rq.path, got)
		}
		if !strings.Contains(body, tokenFile) || !strings.Contains(body, "chronicle apply") {
			t.Errorf("%s %s: the 401 says %s, want the token file and chronicle apply named", rq.method, rq.path, body)
		}
	}
	if code, _, _ := do(t, "POST", r.url+"/mcp", map[string]string{"Authorization": "Bearer not-the-token-0123456789"}, initialize); code != 401 {
		t.Errorf("a wrong token: %d, want 401", code)
	}
	for _, p := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		if code, _, _ := do(t, "GET", r.url+p, none, ""); code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, code)
		}
	}
	if n := len(h.clients.List()); n != 0 {
		t.Errorf("the refused requests left %d sessions", n)
	}
	// The console's "connect a client" snippet carries the header.
	if body := getJSON(t, r.url+"/api/mcp/status"); !strings.Contains(body, `"client_token": true`) {
		t.Errorf("/api/mcp/status: %s", body)
	}
	// A real client without the token cannot start a session.
	tr, err := transport.NewStreamableHTTP(r.url+"/mcp", transport.WithHTTPHeaders(none))
	if err != nil {
		t.Fatal(err)
	}
	bare := client.NewClient(tr)
	if err := bare.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := bare.Initialize(bounded(t), init); err == nil {
		t.Error("a client without the token got a session")
	}
	bare.Close()
	// With the token (the test transport sends it), the same endpoint
	// serves the client.
	if tok, err := hubtoken.Read(fsys.OS{}, tokenFile); err != nil || tok != h.Token() {
		t.Errorf("the hub's token is not its file's: %v", err)
	}
	if tools := toolNames(t, connect(t, r.url, map[string]string{"Authorization": "Bearer " + h.Token()})); len(tools) == 0 {
		t.Error("the client with the token lists nothing")
	}
}

// TestLocalClientsOpenHub: with hub { local_clients = "open" } a loopback
// client needs no token on the MCP endpoints; the management API still
// does.
func TestLocalClientsOpenHub(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	st, err := state.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Hub.LocalClients = "open"
	if err := st.Save(path); err != nil {
		t.Fatal(err)
	}
	r := startHub(t, path)
	none := map[string]string{"Authorization": ""}
	if code, body, _ := do(t, "POST", r.url+"/mcp", none, initialize); code != 200 {
		t.Errorf("initialize without a token on an open hub: %d %s", code, body)
	}
	if code, _, _ := do(t, "GET", r.url+"/api/status", none, ""); code != 401 {
		t.Errorf("/api/status without the token on an open hub: %d, want 401", code)
	}
	// The console's "connect a client" snippet leaves the header out.
	if body := getJSON(t, r.url+"/api/mcp/status"); !strings.Contains(body, `"client_token": false`) {
		t.Errorf("/api/mcp/status of an open hub: %s", body)
	}
}

// TestHubEntryFromApply: the HTTP hub entry apply writes into a tool's
// file carries the token the hub asks for, and a real client (the Go SDK)
// sending exactly the headers of that entry lists and calls; the stdio
// entry's hub (serve --stdio) needs no token.
func TestHubEntryFromApply(t *testing.T) {
	m := enginetest.New(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	m.Converge(m.Config(fmt.Sprintf(`
hub {
  listen = %q
}
service "alpha" {
  command = %q
  env = { %s = "alpha" }
}
link "agents" {
  tools     = ["cursor"]
  hub       = true
  transport = "http"
}
`, ln.Addr().String(), exe, upstreamEnv)))
	var doc struct {
		Servers map[string]struct {
			URL     string            `json:"url"`
			Headers map[string]string `json:"headers"`
		} `json:"mcpServers"`
	}
	b, err := os.ReadFile(m.Path(".cursor/mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	entry := doc.Servers["chronicle"]
	if entry.URL != "http://"+ln.Addr().String()+"/mcp" || !strings.HasPrefix(entry.Headers["Authorization"], "Bearer ") {
		t.Fatalf("the hub entry apply wrote: %+v", entry)
	}
	statePath := filepath.Join(m.Chronicle, "state.json")
	h, err := New(Options{StatePath: statePath, Home: m.Home, Version: "test", ListGrace: testGrace,
		TokenFile: hubtoken.Path(m.Chronicle), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = h.ServeHTTP(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); waitfor.Receive(t, done, "the hub to shut down") })

	client := &http.Client{Transport: headerTransport{headers: entry.Headers}}
	c := gosdk.NewClient(&gosdk.Implementation{Name: "go-sdk-entry", Version: "1"}, nil)
	cs, err := c.Connect(bounded(t), &gosdk.StreamableClientTransport{Endpoint: entry.URL, HTTPClient: client}, nil)
	if err != nil {
		t.Fatalf("the Go SDK with the entry's headers: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(bounded(t), &gosdk.CallToolParams{Name: "alpha__echo", Arguments: map[string]any{"text": "hi"}})
	if err != nil || goText(res) != "alpha:hi" {
		t.Fatalf("a call with the entry's headers: %v %v", res, err)
	}
	bare := &http.Client{Transport: headerTransport{headers: map[string]string{"Authorization": ""}}}
	if _, err := gosdk.NewClient(&gosdk.Implementation{Name: "go-sdk-bare", Version: "1"}, nil).Connect(bounded(t), &gosdk.StreamableClientTransport{Endpoint: entry.URL, HTTPClient: bare}, nil); err == nil {
		t.Error("the Go SDK without the token connected")
	}

	// serve --stdio: no token, no HTTP.
	sc := connectStdio(t, statePath, "", m.Home, mcp.LATEST_LEGACY_PROTOCOL_VERSION)
	if text, isErr := callText(t, sc, "alpha__echo", map[string]any{"text": "x"}); isErr || text != "alpha:x" {
		t.Errorf("over stdio: %q %v", text, isErr)
	}
}

// headerTransport sends headers with every request, as a tool sends its
// entry's headers.
type headerTransport struct{ headers map[string]string }

func (h headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range h.headers {
		req.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(req)
}

// TestTwoHubsStartingAgree: two hubs starting at once over one home make
// one token between them, round after round.
func TestTwoHubsStartingAgree(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, nil, nil)
	for round := range 50 {
		tokenFile := filepath.Join(t.TempDir(), ".chronicle", hubtoken.FileName)
		toks := make([]string, 2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i := range toks {
			wg.Go(func() {
				h, err := New(Options{StatePath: path, Home: t.TempDir(), Version: "test", TokenFile: tokenFile, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
				if err != nil {
					errs[i] = err
					return
				}
				defer h.Close()
				toks[i], errs[i] = h.EnsureToken()
			})
		}
		wg.Wait()
		if errs[0] != nil || errs[1] != nil || toks[0] != toks[1] {
			t.Fatalf("round %d: %q %v and %q %v", round, toks[0], errs[0], toks[1], errs[1])
		}
	}
}

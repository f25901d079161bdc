package chronova

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// syncBuffer is a bytes.Buffer safe to write from the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testOptions are bridge options reading the given environment and an empty
// temp home.
func testOptions(t *testing.T, vars map[string]string, stderr io.Writer) Options {
	return Options{
		Sources: Sources{Home: t.TempDir(), Getenv: env(vars)},
		Version: "1.2.3-test",
		Stderr:  stderr,
	}
}

// startClient starts and initializes an mcp-go client on tr.
func startClient(t *testing.T, tr transport.Interface) *client.Client {
	t.Helper()
	mc := client.NewClient(tr, client.WithProtocolVersion(pinnedProtocol))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := mc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mc.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = pinnedProtocol
	init.Params.ClientInfo = mcp.Implementation{Name: "chronova-test", Version: "0"}
	res, err := mc.Initialize(ctx, init)
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Version != "1.2.3-test" {
		t.Errorf("server version = %q", res.ServerInfo.Version)
	}
	return mc
}

// serveHTTP runs ServeHTTP on a free loopback port until the test ends.
func serveHTTP(t *testing.T, opts Options) string {
	t.Helper()
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeHTTP(ctx, opts, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ServeHTTP: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("ServeHTTP did not stop")
		}
	})
	return "http://" + ln.Addr().String()
}

func TestServeHTTP(t *testing.T) {
	api := newFakeAPI(t)
	var stderr syncBuffer
	base := serveHTTP(t, testOptions(t, map[string]string{"CHRONOVA_API_KEY": testKey, "CHRONOVA_API_URL": api.apiURL()}, &stderr))

	resp, err := http.Get(base + "/health")
	if err != nil {
		t.Fatal(err)
	}
	var health map[string]string
	err = json.NewDecoder(resp.Body).Decode(&health)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || health["status"] != "ok" || health["version"] != "1.2.3-test" {
		t.Errorf("/health = %d %v (%v)", resp.StatusCode, health, err)
	}

	tr, err := transport.NewStreamableHTTP(base + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	mc := startClient(t, tr)
	tools, err := mc.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 4 {
		t.Errorf("%d tools, want 4", len(tools.Tools))
	}
	text, isErr := callTool(t, mc, ToolProductivitySummary, map[string]any{"range": "last_7_days"})
	var got any
	if err := json.Unmarshal([]byte(text), &got); isErr || err != nil {
		t.Fatalf("isError=%v, %v: %s", isErr, err, text)
	}
	if want := fixtureMember(t, "users_current_stats_last_7_days.json", "data"); !jsonEqual(got, want) {
		t.Errorf("result differs from the fixture")
	}
	if strings.Contains(stderr.String(), testKey) {
		t.Error("stderr shows the API key")
	}
}

func TestServeHTTPRejectsForeignHost(t *testing.T) {
	base := serveHTTP(t, testOptions(t, map[string]string{"CHRONOVA_API_KEY": testKey}, io.Discard))
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(`{}`))
	req.Host = "evil.example"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("status = %d, want 403 for a non-loopback Host", resp.StatusCode)
	}
}

func TestServeHTTPWithoutKeyWarns(t *testing.T) {
	var stderr syncBuffer
	base := serveHTTP(t, testOptions(t, nil, &stderr))
	tr, err := transport.NewStreamableHTTP(base + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	text, isErr := callTool(t, startClient(t, tr), ToolDeveloperContext, nil)
	if !isErr || text != noKeyMessage {
		t.Errorf("isError=%v text=%q", isErr, text)
	}
	if !strings.Contains(stderr.String(), "warning: "+ErrNoKey.Error()) {
		t.Errorf("stderr = %q, want the no-key warning", stderr.String())
	}
}

func TestServeHTTPRefusesNonLoopbackListener(t *testing.T) {
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Skip("cannot listen on 0.0.0.0:", err)
	}
	err = ServeHTTP(context.Background(), testOptions(t, nil, io.Discard), ln)
	if err == nil || !strings.Contains(err.Error(), "loopback only") {
		t.Errorf("err = %v, want a loopback-only refusal", err)
	}
}

func TestListen(t *testing.T) {
	for _, addr := range []string{":0", "localhost:0", "127.0.0.1:0", "[::1]:0"} {
		ln, err := Listen(addr)
		if err != nil {
			if addr == "[::1]:0" {
				continue // no IPv6 loopback here
			}
			t.Errorf("Listen(%q): %v", addr, err)
			continue
		}
		if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
			t.Errorf("Listen(%q) bound %s", addr, ip)
		}
		ln.Close()
	}
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:0", "example.com:0", "nonsense"} {
		if ln, err := Listen(addr); err == nil {
			ln.Close()
			t.Errorf("Listen(%q) succeeded, want a refusal", addr)
		}
	}
}

func TestServeStdioWithoutKey(t *testing.T) {
	err := ServeStdio(context.Background(), testOptions(t, nil, io.Discard), strings.NewReader(""), io.Discard)
	if !errors.Is(err, ErrNoKey) {
		t.Fatalf("err = %v, want ErrNoKey", err)
	}
	for _, place := range []string{"CHRONOVA_API_KEY", "~/.chronova.cfg", "~/.wakatime.cfg", "chronova { }", "api_key"} {
		if !strings.Contains(err.Error(), place) {
			t.Errorf("the no-key error does not name %s: %q", place, err)
		}
	}
}

func TestServeStdio(t *testing.T) {
	api := newFakeAPI(t)
	opts := testOptions(t, map[string]string{"CHRONOVA_API_KEY": testKey, "CHRONOVA_API_URL": api.apiURL()}, io.Discard)
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeStdio(ctx, opts, serverIn, serverOut) }()
	t.Cleanup(func() {
		cancel()
		clientOut.Close()
		serverOut.Close()
		if err := <-done; err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	})

	mc := startClient(t, transport.NewIO(clientIn, clientOut, io.NopCloser(strings.NewReader(""))))
	text, isErr := callTool(t, mc, ToolAIInsights, map[string]any{"range": "last_7_days"})
	var got any
	if err := json.Unmarshal([]byte(text), &got); isErr || err != nil {
		t.Fatalf("isError=%v, %v: %s", isErr, err, text)
	}
	if want := fixtureMember(t, "users_current_analytics_ai.json", "data"); !jsonEqual(got, want) {
		t.Errorf("result differs from the fixture")
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

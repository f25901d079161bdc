package hub

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// httpStateEnv makes the test binary serve a hub over HTTP for the state it
// names, as chronicle serve does, printing its address on stdout.
const httpStateEnv = "CHRONICLE_HUB_TEST_HTTP_STATE"

func serveHTTPForTest(state string) {
	h, err := New(Options{StatePath: state, Home: os.Getenv("HOME"), Version: "test", ListGrace: testGrace,
		TokenFile: hubtoken.Path(filepath.Dir(state)),
		Logger:    slog.New(slog.NewTextHandler(os.Stderr, nil))})
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.Exit(1)
	}
	if _, err := h.EnsureToken(); err != nil {
		os.Exit(1)
	}
	os.Stdout.WriteString(ln.Addr().String() + "\n")
	ctx, cancel := context.WithCancel(context.Background())
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); cancel() }() // ends when the test closes stdin
	_ = h.ServeHTTP(ctx, ln)
}

// startServeProcess runs one hub process for state and returns its URL.
func startServeProcess(t *testing.T, state string) string {
	t.Helper()
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), httpStateEnv+"="+state)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the serve process printed no address: %v", err)
	}
	addr = strings.TrimSpace(addr)
	tok, err := hubtoken.Read(fsys.OS{}, hubtoken.Path(filepath.Dir(state)))
	if err != nil {
		t.Fatal(err)
	}
	hubTokens.Store(addr, tok)
	t.Cleanup(func() { hubTokens.Delete(addr) })
	return "http://" + addr
}

// TestStatelessRevisionAcrossReplicas: two hub processes serve one state
// behind a round-robin balancer; a 2026-07-28 client alternates between them
// and gets the same answers, scoped by the URL, from whichever it reaches.
func TestStatelessRevisionAcrossReplicas(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	project := filepath.Join(dir, "project")
	writeState(t, path, []service.Service{testService("alpha", "alpha", ""), testService("beta", "beta", project)}, nil)
	replicas := []string{startServeProcess(t, path), startServeProcess(t, path)}

	var mu sync.Mutex
	served := map[string]int{}
	next := 0
	balancer := httptest.NewServer(&httputil.ReverseProxy{
		FlushInterval: -1,
		Rewrite: func(r *httputil.ProxyRequest) {
			mu.Lock()
			target := replicas[next%len(replicas)]
			next++
			served[target]++
			mu.Unlock()
			u, _ := url.Parse(target)
			r.SetURL(u)
			r.Out.Host = u.Host
		},
	})
	t.Cleanup(balancer.Close)

	cs := goSDKSession(t, balancer.URL+"/mcp?root="+url.QueryEscape(project), "2026-07-28", nil)
	ctx := bounded(t)
	for round := range 4 {
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatalf("round %d tools/list: %v", round, err)
		}
		names := map[string]bool{}
		for _, tl := range tools.Tools {
			names[tl.Name] = true
		}
		if !names["alpha__echo"] || !names["beta__echo"] {
			t.Errorf("round %d: the project's URL lists %v", round, names)
		}
		res, err := cs.CallTool(ctx, &gosdk.CallToolParams{Name: "beta__echo", Arguments: map[string]any{"text": "r"}})
		if err != nil || goText(res) != "beta:r" {
			t.Errorf("round %d call: %v %v", round, res, err)
		}
		read, err := cs.ReadResource(ctx, &gosdk.ReadResourceParams{URI: "test://beta/readme"})
		if err != nil || len(read.Contents) != 1 || read.Contents[0].Text != "readme of beta" {
			t.Errorf("round %d read: %v %v", round, read, err)
		}
	}
	mu.Lock()
	for _, r := range replicas {
		if served[r] < 4 {
			t.Errorf("replica %s served %d requests: the client did not alternate", r, served[r])
		}
	}
	mu.Unlock()
	// 2026-07-28 has no sessions: the status counts its traffic per endpoint.
	if status := getJSON(t, replicas[0]+"/api/status"); !strings.Contains(status, `"/mcp?root=`+project+`": `) {
		t.Errorf("the status does not count 2026-07-28 requests per endpoint:\n%s", status)
	}

	// Without the root, the same replicas offer only the global service.
	plain := goSDKSession(t, balancer.URL+"/mcp", "2026-07-28", nil)
	tools, err := plain.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if strings.HasPrefix(tl.Name, "beta__") {
			t.Errorf("a project's service is listed without its root: %s", tl.Name)
		}
	}
}

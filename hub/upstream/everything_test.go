package upstream

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

// everything returns node and the absolute entry point of server-everything,
// installed from tools/npm by `make npm` (testpeer: a skip when missing, a
// failure in CI).
func everything(t testing.TB) (node, entry string) {
	t.Helper()
	return testpeer.Node(t), testpeer.NPM(t, "@modelcontextprotocol/server-everything/dist/index.js")
}

// everythingSpec runs server-everything over stdio.
func everythingSpec(t testing.TB, name string) service.Service {
	node, entry := everything(t)
	return service.Service{Name: name, Definition: service.Definition{Command: node, Args: []secret.Value{secret.Literal(entry), secret.Literal("stdio")}}, Enabled: true}
}

// serveEverything starts server-everything over a network transport
// (streamableHttp or sse) on a free loopback port, and stops it when the
// test ends. It returns the port.
func serveEverything(t *testing.T, transport string) int {
	t.Helper()
	node, entry := everything(t)
	preload, err := filepath.Abs("testdata/loopback.mjs")
	if err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	cmd := exec.Command(node, "--import", preload, entry, transport)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &logBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		_ = cmd.Wait()
		assertGone(t, pid)
		if t.Failed() {
			t.Logf("server-everything %s output:\n%s", transport, out)
		}
	})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	waitFor(t, "server-everything to listen on "+addr, 15*time.Second, func() bool {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	assertLoopbackOnly(t, port)
	return port
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// assertLoopbackOnly checks that the port is closed on the machine's other
// addresses, when it has any.
func assertLoopbackOnly(t *testing.T, port int) {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		ipnet, ok := a.(*net.IPNet)
		if !ok || ipnet.IP.IsLoopback() || ipnet.IP.IsLinkLocalUnicast() {
			continue
		}
		addr := net.JoinHostPort(ipnet.IP.String(), strconv.Itoa(port))
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			t.Errorf("server-everything also listens on %s", addr)
		} else if !errors.Is(err, syscall.ECONNREFUSED) {
			t.Logf("dial %s: %v", addr, err)
		}
	}
}

// checkEverything asserts what server-everything offers and that echo
// answers with the message.
func checkEverything(t *testing.T, p *Pool, name string) {
	t.Helper()
	ctx := testContext(t)
	u := p.Get(name)
	c, err := u.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	echo, ok := toolNamed(c, "echo")
	if !ok {
		t.Fatalf("no echo among %d tools", len(c.Tools))
	}
	if !strings.Contains(string(echo.RawInputSchema), `"message"`) || echo.Annotations.ReadOnlyHint == nil || !*echo.Annotations.ReadOnlyHint {
		t.Errorf("echo: schema %s, annotations %+v", echo.RawInputSchema, echo.Annotations)
	}
	if len(c.Prompts) == 0 || len(c.Resources) == 0 {
		t.Errorf("%d prompts and %d resources, want some of each", len(c.Prompts), len(c.Resources))
	}
	msg := "hello from chronicle: ünïcode \"quoted\""
	r, err := u.CallTool(ctx, "echo", map[string]any{"message": msg})
	if err != nil {
		t.Fatal(err)
	}
	if got := resultText(t, r); got != "Echo: "+msg {
		t.Errorf("echo returned %q", got)
	}
	// server-everything adds tools once initialized and says so: the
	// catalog may be listed again meanwhile, but it is never unknown.
	if st := statusOf(p, name); st.State != StateReady || st.Tools < len(c.Tools) {
		t.Errorf("status %+v", st)
	}
}

func TestEverythingStdio(t *testing.T) {
	p, _ := newTestPool(t, PoolOptions{}, everythingSpec(t, "everything"))
	checkEverything(t, p, "everything")
	if statusOf(p, "everything").PID == 0 {
		t.Errorf("no pid for a stdio upstream")
	}
}

func TestEverythingStreamableHTTP(t *testing.T) {
	port := serveEverything(t, "streamableHttp")
	spec := service.Service{
		Name:       "everything-http",
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal("http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"), Headers: map[string]secret.Value{"X-Test-Token": secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "TEST_TOKEN"})}},
		Enabled:    true,
	}
	p, _ := newTestPool(t, PoolOptions{Resolver: resolverFor(map[string]string{"TEST_TOKEN": "not-really-needed"})}, spec)
	checkEverything(t, p, "everything-http")
}

func TestEverythingSSE(t *testing.T) {
	port := serveEverything(t, "sse")
	spec := service.Service{
		Name:       "everything-sse",
		Definition: service.Definition{Transport: service.SSE, URL: secret.Literal("http://127.0.0.1:" + strconv.Itoa(port) + "/sse")},
		Enabled:    true,
	}
	p, _ := newTestPool(t, PoolOptions{}, spec)
	checkEverything(t, p, "everything-sse")
}

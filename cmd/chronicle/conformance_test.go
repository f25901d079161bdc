package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

// TestConformance runs the official MCP conformance suite (pinned 0.1.13)
// against chronicle serve with server-everything behind it.
func TestConformance(t *testing.T) {
	conformance := testpeer.NPM(t, ".bin/conformance")
	everything := testpeer.NPM(t, "@modelcontextprotocol/server-everything/dist/index.js")
	node := testpeer.Node(t)
	bin := chronicleBinary(t)
	home := filepath.Join(t.TempDir(), "home")
	cfg := filepath.Join(home, "cfg")
	os.MkdirAll(cfg, 0o755)
	// The suite is a client chronicle does not configure, and it has no
	// way to send a header: this hub lets local clients in without the
	// token (hub { local_clients = "open" }).
	os.WriteFile(filepath.Join(cfg, "chronicle.hcl"), []byte(fmt.Sprintf(`
hub {
  local_clients = "open"
}
service "everything" {
  command = %q
  args    = [%q, "stdio"]
}
`, node, everything)), 0o644)
	env := append(os.Environ(), "HOME="+home, "CHRONICLE_HOME=", "XDG_CONFIG_HOME=")
	run(t, bin, cfg, env, 0, "apply", "--auto-approve")

	port := freePortT(t)
	addr := "127.0.0.1:" + port
	serve := exec.Command(bin, "serve", "--listen", addr)
	serve.Dir, serve.Env = home, env
	serve.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logs := &announcement{want: "chronicle hub: serving MCP on", seen: make(chan struct{})}
	serve.Stderr = logs
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { serve.Wait(); close(exited) }()
	t.Cleanup(func() {
		serve.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			syscall.Kill(-serve.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		if t.Failed() {
			t.Logf("serve log:\n%s", logs)
		}
	})
	// serve announces its address once it listens.
	select {
	case <-logs.seen:
	case <-exited:
		t.Fatalf("serve exited before it listened:\n%s", logs)
	case <-time.After(time.Minute): // a hang guard, not a measurement
		t.Fatalf("serve did not announce its address:\n%s", logs)
	}

	for _, scenario := range []string{
		"server-initialize", "ping", "logging-set-level", "tools-list", "resources-list",
		"prompts-list", "server-sse-multiple-streams", "dns-rebinding-protection",
	} {
		t.Run(scenario, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, conformance, "server", "--url", "http://"+addr+"/mcp", "--scenario", scenario)
			cmd.Dir = t.TempDir()
			cmd.Env = append(os.Environ(), "HOME="+home)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("conformance %s failed: %v\n%s", scenario, err, out)
			}
			// The suite exits 0 only when every check passed; make sure it
			// really ran checks and reported no failure.
			if !strings.Contains(string(out), "Passed:") || !strings.Contains(string(out), " 0 failed") {
				t.Fatalf("conformance %s: unexpected report:\n%s", scenario, out)
			}
			t.Logf("%s: %s", scenario, lastLines(string(out), 3))
		})
	}
}

func freePortT(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// An announcement collects a process's output and closes seen once the
// output holds want.
type announcement struct {
	want string
	seen chan struct{}

	mu   sync.Mutex
	text strings.Builder
}

func (a *announcement) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	had := strings.Contains(a.text.String(), a.want)
	a.text.Write(p)
	if !had && strings.Contains(a.text.String(), a.want) {
		close(a.seen)
	}
	return len(p), nil
}

func (a *announcement) String() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.text.String()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

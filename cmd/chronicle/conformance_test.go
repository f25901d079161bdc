package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

// TestConformance runs the official MCP conformance suite (pinned 0.1.13)
// against chronicle serve with server-everything behind it.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the MCP conformance suite")
	}
	conformance := testpeer.NPM(t, ".bin/conformance")
	everything := testpeer.NPM(t, "@modelcontextprotocol/server-everything/dist/index.js")
	node := testpeer.Node(t)
	bin := chronicleBinary(t)
	home := filepath.Join(t.TempDir(), "home")
	cfg := filepath.Join(home, "cfg")
	os.MkdirAll(cfg, 0o755)
	os.WriteFile(filepath.Join(cfg, "chronicle.hcl"), []byte(fmt.Sprintf(`
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
	var logs strings.Builder
	serve.Stderr = &logs
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		serve.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { serve.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-serve.Process.Pid, syscall.SIGKILL)
			<-done
		}
		if t.Failed() {
			t.Logf("serve log:\n%s", logs.String())
		}
	})
	waitHealthy(t, "http://"+addr+"/health")

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

func waitHealthy(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s never became healthy", url)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

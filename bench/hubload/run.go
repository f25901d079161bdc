//go:build linux

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
)

// A config is what one run measures and with what.
type config struct {
	chronicle string
	home      string
	self      string
	runs      int
	calls     int
	sessions  int
	load      time.Duration
	stdioOnly bool
}

// run starts the direct upstream and the hub, measures them side by side
// and prints the report. Every process it starts is stopped before it
// returns.
func run(ctx context.Context, cfg config) error {
	env := append(os.Environ(), "HOME="+cfg.home, "CHRONICLE_HOME=", "XDG_CONFIG_HOME=")
	if cfg.stdioOnly {
		var rep report
		if err := rep.stdioLatency(ctx, cfg, env); err != nil {
			return err
		}
		rep.print(os.Stdout, cfg)
		return nil
	}

	direct, directAddr, err := startPrinting(ctx, exec.Command(cfg.self, "upstream-http"), false, `^(127\.0\.0\.1:\d+)$`)
	if err != nil {
		return fmt.Errorf("direct upstream: %w", err)
	}
	defer stop(direct)
	serve := exec.Command(cfg.chronicle, "serve", "--listen", "127.0.0.1:0")
	serve.Env, serve.Dir = env, cfg.home
	hub, hubAddr, err := startPrinting(ctx, serve, true, `serving MCP on http://(127\.0\.0\.1:\d+)/mcp`)
	if err != nil {
		return fmt.Errorf("chronicle serve: %w", err)
	}
	defer stop(hub)

	// The hub asks a local process for its token on /mcp as on /api.
	tok, err := hubtoken.Read(fsys.OS{}, hubtoken.Path(filepath.Join(cfg.home, ".chronicle")))
	if err != nil {
		return fmt.Errorf("chronicle serve: %w", err)
	}
	hc := newHTTPClient()
	hc.Transport = bearer{next: hc.Transport, host: hubAddr, token: tok}
	directURL, hubURL := "http://"+directAddr+"/mcp", "http://"+hubAddr+"/mcp"
	var rep report

	// Latency over HTTP: one session each, rounds alternating. The first
	// call through the hub builds its catalogue; a session that is sent a
	// notification then (before 0055 mcp-go told every open session the
	// tools changed) is answered on an SSE stream, a resumable one, from
	// then on. The session that made that first call is measured apart
	// from one opened afterwards.
	ds, err := dialHTTP(hc, directURL, "echo")
	if err != nil {
		return fmt.Errorf("direct over HTTP: %w", err)
	}
	notified, err := dialHTTP(hc, hubURL, "fast__echo")
	if err == nil {
		err = notified.call()
	}
	if err != nil {
		return fmt.Errorf("hub over HTTP: %w", err)
	}
	hs, err := dialHTTP(hc, hubURL, "fast__echo")
	if err != nil {
		return fmt.Errorf("hub over HTTP: %w", err)
	}
	if err := rep.latency(ctx, cfg, "HTTP", ds, hs, hub.Process.Pid); err != nil {
		return err
	}
	if err := rep.latency(ctx, cfg, "HTTP, session open at the first catalogue", ds, notified, hub.Process.Pid); err != nil {
		return err
	}

	if err := rep.stdioLatency(ctx, cfg, env); err != nil {
		return err
	}

	// Memory with cfg.sessions sessions open, each having called, and the
	// tokenizer loaded (/api/tools lists every tool with its token cost);
	// then throughput with as many sessions each, rounds alternating, with
	// the CPU each server process used per call; then memory again.
	dss, hss := make([]session, cfg.sessions), make([]session, cfg.sessions)
	for i := range cfg.sessions {
		if dss[i], err = dialHTTP(hc, directURL, "echo"); err != nil {
			return err
		}
		if hss[i], err = dialHTTP(hc, hubURL, "fast__echo"); err != nil {
			return err
		}
		if _, _, err := sequential(hss[i], 100); err != nil {
			return err
		}
	}
	if err := get(hc, "http://"+hubAddr+"/api/tools"); err != nil {
		return fmt.Errorf("/api/tools: %w", err)
	}
	m, err := status(hub.Process.Pid)
	if err != nil {
		return err
	}
	rep.rss, rep.hwm, rep.anon, rep.file = m["VmRSS"], m["VmHWM"], m["RssAnon"], m["RssFile"]
	if err := rep.throughput(ctx, cfg, direct.Process.Pid, hub.Process.Pid, dss, hss); err != nil {
		return err
	}
	if rep.rssAfter, _, err = memory(hub.Process.Pid); err != nil {
		return err
	}
	rep.print(os.Stdout, cfg)
	return nil
}

// stdioLatency measures calls over stdio: the upstream as a child of this
// process, and chronicle serve --stdio (which starts the same upstream as
// its child).
func (r *report) stdioLatency(ctx context.Context, cfg config, env []string) error {
	up := exec.Command(cfg.self, "upstream")
	us, err := dialStdio(up, "echo")
	if err != nil {
		return fmt.Errorf("direct over stdio: %w", err)
	}
	defer us.close()
	sc := exec.Command(cfg.chronicle, "serve", "--stdio")
	sc.Env, sc.Dir, sc.Stderr = env, cfg.home, io.Discard
	ss, err := dialStdio(sc, "fast__echo")
	if err != nil {
		return fmt.Errorf("serve --stdio: %w", err)
	}
	defer ss.close()
	return r.latency(ctx, cfg, "stdio", us, ss, ss.cmd.Process.Pid)
}

// startPrinting starts cmd and waits for a line of its output (stdout, or
// stderr when stdout is not its own) to match pattern; it returns the
// pattern's first group.
func startPrinting(ctx context.Context, cmd *exec.Cmd, stderr bool, pattern string) (*exec.Cmd, string, error) {
	cmd.SysProcAttr = orphaned()
	var out io.ReadCloser
	var err error
	if stderr {
		out, err = cmd.StderrPipe()
	} else {
		out, err = cmd.StdoutPipe()
	}
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	re := regexp.MustCompile(pattern)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		sent := false
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
	}()
	select {
	case addr := <-found:
		return cmd, addr, nil
	case <-time.After(20 * time.Second):
	case <-ctx.Done():
	}
	stop(cmd)
	return nil, "", fmt.Errorf("%s did not say where it listens", cmd.Path)
}

// orphaned makes a child end when this process does, however it ends.
func orphaned() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}

// stop asks a process to end (SIGINT), and kills it after 5 s.
func stop(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil || cmd.ProcessState != nil {
		return
	}
	_ = cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

func get(c *http.Client, url string) error {
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s", resp.Status)
	}
	return nil
}

// bearer sends the hub's token with every request to the hub, as a hub
// entry chronicle writes does.
type bearer struct {
	next  http.RoundTripper
	host  string
	token string
}

func (b bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host == b.host {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.next.RoundTrip(req)
}

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
	"strings"
	"syscall"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
)

// A config is what one run measures and with what.
type config struct {
	chronicle string // the hub measured
	home      string // the HOME it runs with
	base      string // the hub of the baseline commit, or ""
	baseHome  string // the HOME that one runs with
	forwarder string // bench/forwarder, or ""
	floor     bool   // bench/forwarder -floor measured too
	self      string
	runs      int
	calls     int
	sessions  int
	load      time.Duration
	stdioOnly bool
}

// A target is one server the clients call over HTTP.
type target struct {
	name  string // direct, forwarder, floor, baseline, hub
	url   string
	tool  string
	pid   int    // the server process: its CPU and memory are read
	home  string // a hub's HOME, or ""
	token string // the token it asks for, or ""
}

func (t target) dial(hc *http.Client) (*httpSession, error) {
	s, err := dialHTTP(hc, t.url, t.tool, t.token)
	if err != nil {
		return nil, fmt.Errorf("%s over HTTP: %w", t.name, err)
	}
	return s, nil
}

// hubToken is the token a hub keeps in home, or "" (a hub that does not
// ask for one on /mcp ignores it: the baseline's may not).
func hubToken(home string) string {
	tok, _ := hubtoken.Read(fsys.OS{}, hubtoken.Path(filepath.Join(home, ".chronicle")))
	return tok
}

// run starts every server, measures them side by side, rounds
// interleaved, and prints the report. Every process it starts is stopped
// before it returns.
func run(ctx context.Context, cfg config) error {
	var rep report
	if cfg.stdioOnly {
		if err := rep.stdioLatency(ctx, cfg); err != nil {
			return err
		}
		rep.print(os.Stdout, cfg)
		return nil
	}

	var targets []target
	direct, addr, err := startPrinting(ctx, exec.Command(cfg.self, "upstream-http"), false, `^(127\.0\.0\.1:\d+)$`)
	if err != nil {
		return fmt.Errorf("direct upstream: %w", err)
	}
	defer stop(direct)
	targets = append(targets, target{name: "direct", url: "http://" + addr + "/mcp", tool: "echo", pid: direct.Process.Pid})
	if cfg.forwarder != "" {
		fwd, addr, err := startPrinting(ctx, exec.Command(cfg.forwarder, cfg.self, "upstream"), false, `^(127\.0\.0\.1:\d+)$`)
		if err != nil {
			return fmt.Errorf("forwarder: %w", err)
		}
		defer stop(fwd)
		targets = append(targets, target{name: "forwarder", url: "http://" + addr + "/mcp", tool: "echo", pid: fwd.Process.Pid})
	}
	if cfg.forwarder != "" && cfg.floor {
		tok := strings.Repeat("0123456789abcdef", 4) // as long as a hub's token
		cmd := exec.Command(cfg.forwarder, "-floor", cfg.self, "upstream")
		cmd.Env = append(os.Environ(), "FORWARDER_TOKEN="+tok)
		fl, addr, err := startPrinting(ctx, cmd, false, `^(127\.0\.0\.1:\d+)$`)
		if err != nil {
			return fmt.Errorf("forwarder -floor: %w", err)
		}
		defer stop(fl)
		targets = append(targets, target{name: "floor", url: "http://" + addr + "/mcp", tool: "fast__echo", pid: fl.Process.Pid, token: tok})
	}
	hubs := []struct{ name, bin, home string }{{"baseline", cfg.base, cfg.baseHome}, {"hub", cfg.chronicle, cfg.home}}
	for _, h := range hubs {
		if h.bin == "" {
			continue
		}
		serve := exec.Command(h.bin, "serve", "--listen", "127.0.0.1:0")
		serve.Env, serve.Dir = hubEnv(h.home), h.home
		p, addr, err := startPrinting(ctx, serve, true, `serving MCP on http://(127\.0\.0\.1:\d+)/mcp`)
		if err != nil {
			return fmt.Errorf("%s serve: %w", h.bin, err)
		}
		defer stop(p)
		targets = append(targets, target{name: h.name, url: "http://" + addr + "/mcp", tool: "fast__echo", pid: p.Process.Pid, home: h.home, token: hubToken(h.home)})
	}

	// Latency over HTTP: one session each, opened after a first call
	// built each hub's catalogue.
	hc := newHTTPClient()
	for _, t := range targets {
		if t.home == "" {
			continue
		}
		s, err := t.dial(hc)
		if err == nil {
			err = s.call()
		}
		if err != nil {
			return err
		}
	}
	seq := make([]session, len(targets))
	for i, t := range targets {
		if seq[i], err = t.dial(hc); err != nil {
			return err
		}
	}
	if err := rep.latency(ctx, cfg, "HTTP", names(targets), seq, pids(targets)); err != nil {
		return err
	}

	if err := rep.stdioLatency(ctx, cfg); err != nil {
		return err
	}

	// Memory with cfg.sessions sessions open on each server, each having
	// made 100 calls, and each hub's tokenizer loaded (/api/tools lists
	// every tool with its token cost); then throughput with those
	// sessions, rounds interleaved, with the CPU each server process used
	// per call; then memory again.
	many := make([][]session, len(targets))
	for i, t := range targets {
		many[i] = make([]session, cfg.sessions)
		for j := range many[i] {
			s, err := t.dial(hc)
			if err != nil {
				return err
			}
			if _, _, err := sequential(s, 100); err != nil {
				return fmt.Errorf("%s: %w", t.name, err)
			}
			many[i][j] = s
		}
	}
	for _, t := range targets {
		if t.home == "" {
			continue
		}
		u := strings.TrimSuffix(t.url, "/mcp") + "/api/tools"
		if err := get(hc, u, t.token); err != nil {
			return fmt.Errorf("%s /api/tools: %w", t.name, err)
		}
	}
	for _, t := range targets {
		m, err := status(t.pid)
		if err != nil {
			return err
		}
		rep.mem = append(rep.mem, memRow{name: t.name, rss: m["VmRSS"], hwm: m["VmHWM"], anon: m["RssAnon"], file: m["RssFile"]})
	}
	if err := rep.throughput(ctx, cfg, names(targets), many, pids(targets)); err != nil {
		return err
	}
	for i, t := range targets {
		if rep.mem[i].after, _, err = memory(t.pid); err != nil {
			return err
		}
	}
	rep.print(os.Stdout, cfg)
	return nil
}

func names(ts []target) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.name
	}
	return out
}

func pids(ts []target) []int {
	out := make([]int, len(ts))
	for i, t := range ts {
		out[i] = t.pid
	}
	return out
}

func hubEnv(home string) []string {
	return append(os.Environ(), "HOME="+home, "CHRONICLE_HOME=", "XDG_CONFIG_HOME=")
}

// stdioLatency measures calls over stdio: the upstream as a child of this
// process, and each chronicle serve --stdio (which starts the same
// upstream as its child).
func (r *report) stdioLatency(ctx context.Context, cfg config) error {
	us, err := dialStdio(exec.Command(cfg.self, "upstream"), "echo")
	if err != nil {
		return fmt.Errorf("direct over stdio: %w", err)
	}
	defer us.close()
	ss, ns, ps := []session{us}, []string{"direct"}, []int{us.cmd.Process.Pid}
	if cfg.forwarder != "" {
		fs, err := dialStdio(exec.Command(cfg.forwarder, "-stdio", cfg.self, "upstream"), "echo")
		if err != nil {
			return fmt.Errorf("forwarder over stdio: %w", err)
		}
		defer fs.close()
		ss, ns, ps = append(ss, fs), append(ns, "forwarder"), append(ps, fs.cmd.Process.Pid)
	}
	for _, h := range []struct{ name, bin, home string }{{"baseline", cfg.base, cfg.baseHome}, {"hub", cfg.chronicle, cfg.home}} {
		if h.bin == "" {
			continue
		}
		sc := exec.Command(h.bin, "serve", "--stdio")
		sc.Env, sc.Dir, sc.Stderr = hubEnv(h.home), h.home, io.Discard
		s, err := dialStdio(sc, "fast__echo")
		if err != nil {
			return fmt.Errorf("%s serve --stdio: %w", h.name, err)
		}
		defer s.close()
		ss, ns, ps = append(ss, s), append(ns, h.name), append(ps, s.cmd.Process.Pid)
	}
	return r.latency(ctx, cfg, "stdio", ns, ss, ps)
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

func get(c *http.Client, url, token string) error {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
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

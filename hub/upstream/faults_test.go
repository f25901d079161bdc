package upstream

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

func TestCrashRestartsOnNextCall(t *testing.T) {
	changed := make(chan string, 10)
	p, _ := newTestPool(t, PoolOptions{OnChange: func(s string) { changed <- s }}, selfSpec("faulty", "normal"))
	ctx := testContext(t)
	u := p.Get("faulty")
	before, err := u.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	firstPID := statusOf(p, "faulty").PID

	_, err = u.CallTool(ctx, "crash", nil)
	if err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "faulty") {
		t.Fatalf("crash: got %v, want an error naming the service and its exit status", err)
	}
	st := statusOf(p, "faulty")
	if st.State != StateFailed || !strings.Contains(st.Error, "exit status 3") || !strings.Contains(st.Error, "crashing on purpose") {
		t.Errorf("status after the crash: %+v", st)
	}

	r, err := u.CallTool(ctx, "pid", nil)
	if err != nil {
		t.Fatalf("the call after the crash: %v", err)
	}
	st = statusOf(p, "faulty")
	if st.State != StateReady || st.Restarts != 1 || st.PID == firstPID || resultText(t, r) == "" {
		t.Errorf("status after the restart: %+v", st)
	}
	assertGone(t, firstPID)

	// The catalog is listed again, and the hub is told.
	if s := waitChange(t, changed, "the restart"); s != "faulty" {
		t.Errorf("OnChange(%q)", s)
	}
	after, err := u.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	oldTool, _ := toolNamed(before, "pid")
	newTool, _ := toolNamed(after, "pid")
	if oldTool.Description == newTool.Description {
		t.Errorf("catalog not listed again: pid tool still says %q", newTool.Description)
	}
}

func TestHungCallTimesOut(t *testing.T) {
	p, _ := newTestPool(t, PoolOptions{Timeout: 500 * time.Millisecond},
		selfSpec("hangs", "normal"), selfSpec("other", "normal"))
	ctx := testContext(t)
	hangs := p.Get("hangs")
	if _, err := hangs.CallTool(ctx, "pid", nil); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := hangs.CallTool(ctx, "hang", nil)
		done <- err
	}()
	// While the call hangs, the pool still answers for another service.
	if r, err := p.Get("other").CallTool(ctx, "echo", map[string]any{"message": "still here"}); err != nil || resultText(t, r) != "still here" {
		t.Errorf("other service while one hangs: %v", err)
	}
	// The pool's timeout, not the caller's (30 s) context, cut the call.
	err := waitfor.Receive(t, done, "the hung call to time out")
	if err == nil || !strings.Contains(err.Error(), "500ms") || !strings.Contains(err.Error(), "hangs") || ctx.Err() != nil {
		t.Fatalf("hung call: %v", err)
	}
	// The upstream stays usable.
	if r, err := hangs.CallTool(ctx, "echo", map[string]any{"message": "after"}); err != nil || resultText(t, r) != "after" {
		t.Errorf("call after a timeout: %v", err)
	}
	if st := statusOf(p, "hangs"); st.State != StateReady || st.Restarts != 0 {
		t.Errorf("status after a timeout: %+v", st)
	}
}

func TestWedgedUpstreamIsRestarted(t *testing.T) {
	p, _ := newTestPool(t, PoolOptions{Timeout: 200 * time.Millisecond}, selfSpec("wedged", "normal"))
	ctx := testContext(t)
	u := p.Get("wedged")
	for range timeoutsBeforeRestart {
		if _, err := u.CallTool(ctx, "hang", nil); err == nil {
			t.Fatal("hang answered")
		}
	}
	if st := statusOf(p, "wedged"); st.State != StateFailed || !strings.Contains(st.Error, "timed out") {
		t.Errorf("status after %d timeouts: %+v", timeoutsBeforeRestart, st)
	}
	if _, err := u.CallTool(ctx, "pid", nil); err != nil {
		t.Fatal(err)
	}
	if st := statusOf(p, "wedged"); st.Restarts != 1 {
		t.Errorf("status after the restart: %+v", st)
	}
}

func TestGarbageOnStdout(t *testing.T) {
	p, _ := newTestPool(t, PoolOptions{StartTimeout: time.Second},
		selfSpec("garbage", "garbage"), selfSpec("fine", "normal"))
	all := p.ListAll(testContext(t))
	if c := all["fine"]; c.Err != nil || len(c.Tools) == 0 {
		t.Errorf("fine: %d tools, %v", len(c.Tools), c.Err)
	}
	c := all["garbage"]
	if c.Err == nil || !strings.Contains(c.Err.Error(), "non-JSON-RPC") || !strings.Contains(c.Err.Error(), "Server starting...") {
		t.Errorf("garbage: %v", c.Err)
	}
	st := statusOf(p, "garbage")
	if st.State != StateFailed || !strings.Contains(st.Error, "start timeout") || !strings.Contains(st.Error, "non-JSON-RPC") {
		t.Errorf("garbage status: %+v", st)
	}
	if st := statusOf(p, "fine"); st.State != StateReady {
		t.Errorf("fine status: %+v", st)
	}
}

func TestSlowStartDoesNotBlockOthers(t *testing.T) {
	release := filepath.Join(t.TempDir(), "release")
	slow := selfSpec("aaa-slow", "slow")
	slow.Env[releaseEnv] = secret.Literal(release)
	p, _ := newTestPool(t, PoolOptions{StartTimeout: time.Minute}, slow, selfSpec("fast", "normal"))
	done := make(chan map[string]Catalog, 1)
	go func() { done <- p.ListAll(testContext(t)) }()
	waitFor(t, "the fast upstream", time.Minute, func() bool { return statusOf(p, "fast").State == StateReady })
	if st := statusOf(p, "aaa-slow"); st.State != StateStarting {
		t.Errorf("slow upstream while the fast one is ready: %+v", st)
	}
	select {
	case <-done:
		t.Fatal("ListAll returned while an upstream was still starting")
	default:
	}
	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// ListAll waited for the slow upstream: both are listed.
	all := waitfor.Receive(t, done, "ListAll to return")
	for _, name := range []string{"aaa-slow", "fast"} {
		if c := all[name]; c.Err != nil || len(c.Tools) == 0 {
			t.Errorf("%s: %d tools, %v", name, len(c.Tools), c.Err)
		}
	}
}

func TestExitAtStart(t *testing.T) {
	p, _ := newTestPool(t, PoolOptions{}, selfSpec("exits", "exit"))
	ctx := testContext(t)
	_, err := p.Get("exits").Catalog(ctx)
	if err == nil || !strings.Contains(err.Error(), "exit status 2") || !strings.Contains(err.Error(), "fatal: missing configuration") {
		t.Fatalf("got %v", err)
	}
	// A second need within the backoff fails at once when the caller cannot
	// wait, and says when the next restart is due.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, err = p.Get("exits").Catalog(short)
	if err == nil || !strings.Contains(err.Error(), "next restart in") {
		t.Errorf("within the backoff: %v", err)
	}
}

func TestListChanged(t *testing.T) {
	changed := make(chan string, 10)
	p, _ := newTestPool(t, PoolOptions{OnChange: func(s string) { changed <- s }}, selfSpec("faulty", "normal"))
	u := p.Get("faulty")
	if _, err := u.Catalog(testContext(t)); err != nil {
		t.Fatal(err)
	}
	assertToolAdded(t, u, changed)
}

func TestSecretsAreResolvedAndMasked(t *testing.T) {
	const token = "s3cr3t-t0ken-value"
	spec := selfSpec("leaky", "normal")
	spec.Env["SECRET_TOKEN"] = secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "UPSTREAM_TEST_TOKEN"})
	p, log := newTestPool(t, PoolOptions{Resolver: resolverFor(map[string]string{"UPSTREAM_TEST_TOKEN": token})}, spec)
	ctx := testContext(t)
	if _, err := p.Get("leaky").CallTool(ctx, "leak", nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the stderr line in the log", 5*time.Second, func() bool { return strings.Contains(log.String(), "token is") })
	if strings.Contains(log.String(), token) {
		t.Errorf("the log shows the secret:\n%s", log)
	}
	if !strings.Contains(log.String(), "token is "+mask.Hide(token)) || !strings.Contains(log.String(), "service=leaky") {
		t.Errorf("the stderr line is not logged masked and named:\n%s", log)
	}

	// A reference that cannot be resolved is a start error naming it.
	missing := selfSpec("missing", "normal")
	missing.Env["X"] = secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "UPSTREAM_TEST_UNSET"})
	p.Reconcile([]service.Service{spec, missing})
	_, err := p.Get("missing").Catalog(ctx)
	if err == nil || !strings.Contains(err.Error(), "UPSTREAM_TEST_UNSET") || !strings.Contains(err.Error(), "missing") {
		t.Errorf("unresolved secret: %v", err)
	}
}

func TestReconcile(t *testing.T) {
	p, _ := newTestPool(t, PoolOptions{}, selfSpec("keep", "normal"), selfSpec("change", "normal"), selfSpec("drop", "normal"))
	ctx := testContext(t)
	pid := func(name string) int {
		t.Helper()
		if _, err := p.Get(name).CallTool(ctx, "pid", nil); err != nil {
			t.Fatal(err)
		}
		return statusOf(p, name).PID
	}
	keep, change, drop := pid("keep"), pid("change"), pid("drop")
	keepUp := p.Get("keep")

	changed := selfSpec("change", "normal")
	changed.Cwd = t.TempDir()
	p.Reconcile([]service.Service{selfSpec("keep", "normal"), changed, selfSpec("new", "normal")})

	if p.Get("keep") != keepUp || statusOf(p, "keep").PID != keep {
		t.Errorf("an unchanged upstream was replaced")
	}
	assertGone(t, change, drop)
	if p.Get("drop") != nil {
		t.Errorf("a removed service is still in the pool")
	}
	if st := statusOf(p, "change"); st.State != StateIdle {
		t.Errorf("a changed service should wait for its first need: %+v", st)
	}
	if pid("change") == change {
		t.Errorf("the changed service kept its process")
	}
	if _, err := keepUp.CallTool(ctx, "pid", nil); err != nil {
		t.Errorf("the kept upstream: %v", err)
	}
	names := []string{}
	for _, st := range p.Status() {
		names = append(names, st.Name)
	}
	if strings.Join(names, ",") != "change,keep,new" {
		t.Errorf("status names %v", names)
	}
}

func TestStoppedUpstreamRefuses(t *testing.T) {
	p, _ := newTestPool(t, PoolOptions{}, selfSpec("faulty", "normal"))
	u := p.Get("faulty")
	p.Close()
	_, err := u.CallTool(testContext(t), "pid", nil)
	if err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Errorf("call after Close: %v", err)
	}
	if p.Get("faulty") != nil {
		t.Errorf("pool not empty after Close")
	}
}

func TestBadSpecs(t *testing.T) {
	p, _ := newTestPool(t, PoolOptions{},
		service.Service{Name: "nocmd", Enabled: true},
		service.Service{Name: "badcmd", Definition: service.Definition{Command: "/nonexistent/server"}, Enabled: true},
		service.Service{Name: "badtransport", Definition: service.Definition{Transport: "carrier-pigeon"}, Enabled: true},
		service.Service{Name: "nourl", Definition: service.Definition{Transport: service.HTTP}, Enabled: true},
		service.Service{Name: "refused", Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal("http://127.0.0.1:1/mcp")}, Enabled: true},
		service.Service{Name: "off", Definition: service.Definition{Command: "/nonexistent/server"}},
		selfSpec("fine", "normal"))
	all := p.ListAll(testContext(t))
	want := map[string]string{
		"nocmd":        "no command",
		"badcmd":       "/nonexistent/server",
		"badtransport": "carrier-pigeon",
		"nourl":        "no url",
		"refused":      "refused",
	}
	for name, text := range want {
		c, ok := all[name]
		if !ok || c.Err == nil || !strings.Contains(c.Err.Error(), text) || !strings.HasPrefix(c.Err.Error(), name+": ") {
			t.Errorf("%s: %v, want an error starting with the name and mentioning %q", name, c.Err, text)
		}
	}
	if _, ok := all["off"]; ok {
		t.Errorf("a disabled service was listed")
	}
	if _, err := p.Get("off").CallTool(testContext(t), "x", nil); err == nil || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("call to a disabled service: %v", err)
	}
	if c := all["fine"]; c.Err != nil {
		t.Errorf("fine: %v", c.Err)
	}
}

func TestBackoff(t *testing.T) {
	for n, want := range map[int]time.Duration{
		1: 250 * time.Millisecond, 2: 500 * time.Millisecond, 3: time.Second,
		8: 30 * time.Second, 100: 30 * time.Second,
	} {
		if got := backoff(n); got != want {
			t.Errorf("backoff(%d) = %s, want %s", n, got, want)
		}
	}
}

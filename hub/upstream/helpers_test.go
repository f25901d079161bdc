package upstream

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(serverModeEnv); mode != "" {
		serveTestServer(mode)
		os.Exit(0)
	}
	if testing.CoverMode() != "" {
		// A child built for coverage warns on stderr as it exits when it
		// has nowhere to write its counts, and the fault tests read a
		// crashed child's last stderr line.
		dir, err := os.MkdirTemp("", "upstream-cover-")
		if err != nil {
			panic(err)
		}
		childCoverDir = dir
		code := m.Run()
		_ = os.RemoveAll(dir)
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// childCoverDir is the GOCOVERDIR of selfSpec's servers under -cover.
var childCoverDir string

// A logBuffer collects what a pool logs, safe for concurrent writes.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startedPIDs returns every child pid the pool logged as ready.
func (b *logBuffer) startedPIDs() []int {
	var pids []int
	for _, m := range regexp.MustCompile(`pid=(\d+)`).FindAllStringSubmatch(b.String(), -1) {
		if pid, _ := strconv.Atoi(m[1]); pid > 0 {
			pids = append(pids, pid)
		}
	}
	return pids
}

// newTestPool returns a pool whose log is kept, and closes it when the test
// ends, checking that every child it started is gone (reaped, not a zombie).
func newTestPool(t testing.TB, opts PoolOptions, specs ...service.Service) (*Pool, *logBuffer) {
	t.Helper()
	log := &logBuffer{}
	opts.Logger = slog.New(slog.NewTextHandler(log, nil))
	p := NewPool(opts)
	p.Reconcile(specs)
	t.Cleanup(func() {
		p.Close()
		assertGone(t, log.startedPIDs()...)
		if t.Failed() {
			t.Logf("pool log:\n%s", log)
		}
	})
	return p, log
}

// assertGone fails the test if any of the processes still exists.
func assertGone(t testing.TB, pids ...int) {
	t.Helper()
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("process %d is still there after the pool closed (kill 0: %v)", pid, err)
		}
	}
}

// selfSpec is a stdio service running this test binary as an MCP server in
// the given mode.
func selfSpec(name, mode string) service.Service {
	env := map[string]secret.Value{serverModeEnv: secret.Literal(mode)}
	if childCoverDir != "" {
		env["GOCOVERDIR"] = secret.Literal(childCoverDir)
	}
	return service.Service{
		Name:       name,
		Definition: service.Definition{Command: os.Args[0], Env: env},
		Enabled:    true,
	}
}

func testContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t testing.TB, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func statusOf(p *Pool, name string) Status {
	for _, s := range p.Status() {
		if s.Name == name {
			return s
		}
	}
	return Status{}
}

// resolverFor resolves env references from vars only.
func resolverFor(vars map[string]string) secret.Resolver {
	return secret.Resolver{Env: func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}}
}

// waitChange returns the next service OnChange reported, failing the test
// if none comes soon after what happened.
func waitChange(t testing.TB, changed <-chan string, after string) string {
	t.Helper()
	select {
	case s := <-changed:
		return s
	case <-time.After(5 * time.Second):
		t.Fatalf("no OnChange after %s", after)
		return ""
	}
}

// assertToolAdded has the test server add a tool, and checks that the
// upstream reports the change and lists the new tool.
func assertToolAdded(t testing.TB, u *Upstream, changed <-chan string) {
	t.Helper()
	ctx := testContext(t)
	if _, err := u.CallTool(ctx, "add_tool", nil); err != nil {
		t.Fatal(err)
	}
	waitChange(t, changed, "tools/list_changed")
	c, err := u.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range c.Tools {
		if tool.Name == "added" {
			return
		}
	}
	t.Errorf("the added tool is not in the catalog")
}

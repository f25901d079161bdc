package upstream

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// A service whose only change is its hub-side timeout keeps its process
// (calls in flight go on) and its next call has the new timeout; a change
// that needs another process ends the calls in flight saying so.
func TestReconcileAppliesTimeoutLive(t *testing.T) {
	spec := selfSpec("svc", "normal")
	spec.Timeout = time.Minute
	p, _ := newTestPool(t, PoolOptions{}, spec)
	ctx := testContext(t)
	u := p.Get("svc")
	if _, err := u.CallTool(ctx, "pid", nil); err != nil {
		t.Fatal(err)
	}
	pid := statusOf(p, "svc").PID

	// A call in flight while the timeout changes.
	inFlight := make(chan error, 1)
	hang := map[string]any{"name": "hang", "arguments": map[string]any{}}
	go func() {
		_, err := u.Request(ctx, "a client", "tools/call", hang)
		inFlight <- err
	}()
	waitFor(t, "the call to be in flight", 10*time.Second, func() bool { _, n := u.inflight.Attributed(); return n == 1 })

	short := spec
	short.Timeout = 300 * time.Millisecond
	short.Description = "described now"
	p.Reconcile([]service.Service{short})
	if p.Get("svc") != u || statusOf(p, "svc").PID != pid {
		t.Fatalf("a timeout change replaced the upstream (pid %d, now %+v)", pid, statusOf(p, "svc"))
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("a timeout change stopped the process: %v", err)
	}
	if got := u.Service().Timeout; got != short.Timeout {
		t.Errorf("the upstream's service has timeout %s, want %s", got, short.Timeout)
	}
	select {
	case err := <-inFlight:
		t.Fatalf("the call in flight ended at a timeout change: %v", err)
	default:
	}
	// The next call has the new timeout.
	if _, err := u.Request(ctx, nil, "tools/call", hang); err == nil || !strings.Contains(err.Error(), "no answer within the 300ms timeout") {
		t.Fatalf("a call after the change: %v", err)
	}

	// Another working folder needs another process: the call in flight
	// is told why it ended.
	moved := short
	moved.Cwd = t.TempDir()
	p.Reconcile([]service.Service{moved})
	err := waitfor.Receive(t, inFlight, "the call in flight to end when its upstream restarts")
	if err == nil || !strings.Contains(err.Error(), "svc: tools/call: restarted: configuration changed") {
		t.Fatalf("the call in flight at a restart: %v", err)
	}
	assertGone(t, pid)
}

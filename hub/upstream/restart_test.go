package upstream

import "testing"

// A restart on request stops the child (reaped, not a zombie), starts a new
// one at once, counts as a restart, and the new one answers.
func TestRestartOnRequest(t *testing.T) {
	p, log := newTestPool(t, PoolOptions{}, selfSpec("svc", "normal"))
	u := p.Get("svc")
	if _, err := u.CallTool(testContext(t), "pid", nil); err != nil {
		t.Fatal(err)
	}
	first := statusOf(p, "svc").PID
	if err := u.Restart(testContext(t)); err != nil {
		t.Fatal(err)
	}
	st := statusOf(p, "svc")
	if st.State != StateReady || st.PID == 0 || st.PID == first || st.Restarts != 1 {
		t.Fatalf("after the restart: %+v (first pid %d)", st, first)
	}
	assertGone(t, first)
	if _, err := u.CallTool(testContext(t), "pid", nil); err != nil {
		t.Fatal(err)
	}
	if pids := log.startedPIDs(); len(pids) != 2 {
		t.Fatalf("started %v", pids)
	}

	// An idle upstream starts; a stopped one refuses.
	p.Reconcile(nil)
	if err := u.Restart(testContext(t)); err == nil {
		t.Fatal("a stopped upstream restarted")
	}
}

package hub

import (
	"errors"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"github.com/chronicle-dev/chronicle/engine/service"
)

// TestPerClientSessions: a service with sessions = "per-client" runs one
// upstream per client session, ended with the session; a shared service
// runs one for all.
func TestPerClientSessions(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	own := testService("own", "recorder", "")
	own.Sessions = service.PerClient
	writeState(t, path, []service.Service{own, testService("shared", "recorder", "")}, nil)
	r := startHub(t, path)

	a, b := connect(t, r.url, nil), connect(t, r.url, nil)
	pid := func(c *client.Client, tool string) int {
		t.Helper()
		text, isErr := callText(t, c, tool, nil)
		n, err := strconv.Atoi(text)
		if isErr || err != nil {
			t.Fatalf("%s: %q", tool, text)
		}
		return n
	}
	ownA, ownB := pid(a, "own__pid"), pid(b, "own__pid")
	if ownA == ownB {
		t.Errorf("two sessions share the per-client upstream (pid %d)", ownA)
	}
	if again := pid(a, "own__pid"); again != ownA {
		t.Errorf("one session got two per-client upstreams: %d, %d", ownA, again)
	}
	if pid(a, "shared__pid") != pid(b, "shared__pid") {
		t.Errorf("a shared service runs twice")
	}
	// Ending the session (DELETE) stops its own upstream before the hub
	// answers, and only that one.
	a.Close()
	if err := syscall.Kill(ownA, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the ended session's upstream %d is still there: %v", ownA, err)
	}
	if err := syscall.Kill(ownB, 0); err != nil {
		t.Errorf("the other session's upstream stopped too: %v", err)
	}
}

package hub

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// Changing only a service's hub-side timeout, or its policy, reloads
// without restarting its upstream: the same process answers, and the new
// policy holds at once.
func TestReloadKeepsUpstreamForTimeoutAndPolicy(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	svc := testService("alpha", "alpha", "")
	writeState(t, path, []service.Service{svc}, nil)
	r := startHub(t, path)
	c := connect(t, r.url, nil)
	if text, isErr := callText(t, c, "alpha__echo", map[string]any{"text": "hi"}); isErr || text != "alpha:hi" {
		t.Fatalf("echo: %q (error %v)", text, isErr)
	}
	pid := servicePID(r.hub, "alpha")
	if pid == 0 {
		t.Fatalf("no process for alpha: %+v", r.hub.pool.Status())
	}

	svc.Timeout = 42 * time.Second
	writeState(t, path, []service.Service{svc}, map[string]state.Policy{"alpha": {DisabledTools: []string{"delete_*"}}})
	if err := r.hub.Reload(); err != nil {
		t.Fatal(err)
	}
	if got := servicePID(r.hub, "alpha"); got != pid {
		t.Fatalf("a timeout and policy change restarted the upstream: pid %d, now %d", pid, got)
	}
	if text, isErr := callText(t, c, "alpha__delete_everything", nil); !isErr || !strings.Contains(text, "disabled by a chronicle policy") {
		t.Errorf("the new policy does not hold: %q", text)
	}
	if text, isErr := callText(t, c, "alpha__echo", map[string]any{"text": "again"}); isErr || text != "alpha:again" {
		t.Errorf("echo after the reload: %q (error %v)", text, isErr)
	}
	if got := servicePID(r.hub, "alpha"); got != pid {
		t.Errorf("the call after the reload ran in another process: pid %d, now %d", pid, got)
	}
}

func servicePID(h *Hub, name string) int {
	for _, s := range h.pool.Status() {
		if s.Name == name {
			return s.PID
		}
	}
	return 0
}

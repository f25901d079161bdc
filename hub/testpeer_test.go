package hub

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// requirePeer returns the absolute path of a test peer installed by the
// project's scripts (make npm), or ends the test: in CI (CI=true) a missing
// peer fails it, elsewhere it is skipped. It stands in for the shared
// internal/testpeer helper, with the same rule, until that lands.
func requirePeer(t testing.TB, rel string) string {
	t.Helper()
	p, err := filepath.Abs(rel)
	if err == nil {
		_, err = os.Stat(p)
	}
	if err != nil {
		missingPeer(t, rel+" ("+err.Error()+"): run make npm")
	}
	return p
}

// requireNode returns node's path, under the same rule.
func requireNode(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		missingPeer(t, "node ("+err.Error()+"): run make tools")
	}
	return node
}

func missingPeer(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("test peer missing: %s", what)
	}
	t.Skipf("test peer missing: %s", what)
}

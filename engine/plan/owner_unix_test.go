//go:build unix

package plan_test

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

func TestEntryOfAnotherUser(t *testing.T) {
	m := enginetest.New(t)
	p := m.Write(cursorFile, `{"mcpServers": {}}`)
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	owner := int(info.Sys().(*syscall.Stat_t).Uid)
	// chronicle running as someone else than the file's owner, not root.
	pl := plan.Compute(plan.Inputs{
		Config: m.Config(oneService), State: m.State(), Tools: m.Tools, Env: m.Env, StoreDir: m.Store,
		Reader: fsys.ReadOnly(fsys.OS{}), EUID: owner + 1,
	})
	c := enginetest.Change(t, pl, ghAddr)
	if c.Action != plan.Conflict || !strings.Contains(c.Reason, "belongs to user") {
		t.Fatalf("a file of another user: %s %q", c.Action, c.Reason)
	}
}

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/lock"
)

// TestWritersTakeTheStateLock: every command that writes under ~/.chronicle
// (docs/locks.md) refuses to run while another process holds the state
// lock, and says who holds it; it changes nothing meanwhile.
func TestWritersTakeTheStateLock(t *testing.T) {
	home := fixtureHome(t) // tools with servers and skills: adopt and init have work to do
	ch := filepath.Join(home, ".chronicle")
	dots := filepath.Join(home, "dots")
	writeConfig(t, dots, "# adopt appends here\n")
	l, err := lock.Acquire(context.Background(), filepath.Join(ch, "state.lock"), "test", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	before := tree(t, ch)
	held := fmt.Sprintf("state is locked by pid %d", os.Getpid())

	for _, args := range [][]string{
		{"sync", "--repo", "https://127.0.0.1:1/never-reached.git"},
		{"adopt", "--chdir", dots},
		{"init", filepath.Join(home, "new-dots")},
		{"apply", "--auto-approve", "--chdir", dots},
		{"state", "rm", `link.x["cursor"].skill.y`},
		{"backups", "restore", "original"},
		{"skills", "restore", "review", "1"},
	} {
		out, errOut, code := runCLI(t, args...)
		if code != 1 || !strings.Contains(errOut, held) {
			t.Errorf("chronicle %s with the lock held: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out, errOut)
		}
	}
	if after := tree(t, ch); after != before {
		t.Errorf("~/.chronicle changed while the lock was held:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// tree lists the paths under dir, one a line.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			rel, _ := filepath.Rel(dir, p)
			b.WriteString(rel + "\n")
		}
		return nil
	})
	return b.String()
}

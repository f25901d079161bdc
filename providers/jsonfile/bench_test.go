package jsonfile

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkEditNewEntries adds n entries to the user servers of a
// realistic ~/.claude.json in one Edit (verification included): the cost
// must grow with n, not with n².
func BenchmarkEditNewEntries(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(fixtures, "claude-code/home/.claude.json"))
	if err != nil {
		b.Fatal(err)
	}
	d, err := Parse("f", src)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 250, 2000} {
		changes := make([]Change, n)
		for i := range changes {
			changes[i] = Change{KeyPath: []string{"mcpServers"}, Name: fmt.Sprintf("svc-%04d", i),
				Value: []byte(fmt.Sprintf(`{"type":"stdio","command":"npx","args":["-y","@example/mcp-%d"],"env":{"TOKEN":"${TOKEN}"}}`, i))}
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := d.Edit(changes); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

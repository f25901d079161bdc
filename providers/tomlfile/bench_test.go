package tomlfile

import (
	"fmt"
	"testing"
)

// BenchmarkEditNewEntries adds n entries to the servers of a realistic
// ~/.codex/config.toml in one Edit (rendering and verification included):
// the cost must grow with n, not with n².
func BenchmarkEditNewEntries(b *testing.B) {
	d := parse(b, fixture(b, "home"))
	for _, n := range []int{1, 250, 2000} {
		changes := make([]Change, n)
		for i := range changes {
			changes[i] = Change{KeyPath: servers, Name: fmt.Sprintf("svc-%04d", i), Table: Table{
				{"command", "npx"}, {"args", []string{"-y", fmt.Sprintf("@example/mcp-%d", i)}}, {"env_vars", []string{"TOKEN"}},
			}}
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

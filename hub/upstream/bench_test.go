package upstream

import (
	"testing"

	"github.com/chronicle-dev/chronicle/engine/service"
)

// BenchmarkCallDirect calls echo straight through an Upstream, for
// comparison with the same call through the hub.
func BenchmarkCallDirect(b *testing.B) {
	for _, bc := range []struct {
		name string
		spec func(testing.TB) service.Service
	}{
		{"go-stdio", func(testing.TB) service.Service { return selfSpec("go", "normal") }},
		{"everything-stdio", func(t testing.TB) service.Service { return everythingSpec(t, "everything") }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			spec := bc.spec(b)
			p, _ := newTestPool(b, PoolOptions{}, spec)
			u := p.Get(spec.Name)
			ctx := testContext(b)
			args := map[string]any{"message": "benchmark"}
			if _, err := u.CallTool(ctx, "echo", args); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := u.CallTool(ctx, "echo", args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

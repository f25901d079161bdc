package upstream

import (
	"testing"

	"github.com/chronicle-dev/chronicle/internal/cputime"

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

// BenchmarkRequest is Upstream.Request of a tools/call to a stdio child,
// as the hub's call path makes it: the transport's own CPU per request
// (the child is a process of its own), for side-by-side runs of the
// transport (decision 0215).
func BenchmarkRequest(b *testing.B) {
	spec := selfSpec("go", "normal")
	p, _ := newTestPool(b, PoolOptions{}, spec)
	u := p.Get(spec.Name)
	ctx := testContext(b)
	params := map[string]any{"name": "echo", "arguments": map[string]any{"message": "benchmark"}}
	if _, err := u.Request(ctx, nil, "tools/call", params); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		if _, err := u.Request(ctx, nil, "tools/call", params); err != nil {
			b.Fatal(err)
		}
	}
	cputime.ReportPerOp(b, cpu)
}

// BenchmarkRequest16 is BenchmarkRequest with 16 requests in flight at
// once, as 16 client sessions make them.
func BenchmarkRequest16(b *testing.B) {
	spec := selfSpec("go", "normal")
	p, _ := newTestPool(b, PoolOptions{}, spec)
	u := p.Get(spec.Name)
	ctx := testContext(b)
	params := map[string]any{"name": "echo", "arguments": map[string]any{"message": "benchmark"}}
	if _, err := u.Request(ctx, nil, "tools/call", params); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetParallelism(8) // 16 goroutines on 2 cores
	cpu := cputime.Used()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := u.Request(ctx, nil, "tools/call", params); err != nil {
				b.Error(err)
				return
			}
		}
	})
	cputime.ReportPerOp(b, cpu)
}

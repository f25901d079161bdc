package cores

import (
	"sync/atomic"
	"testing"
)

func TestEachCallsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, Few - 1, Few, 1000} {
		seen := make([]atomic.Int32, n)
		Each(n, func(i int) { seen[i].Add(1) })
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d called %d times", n, i, c)
			}
		}
	}
	var calls atomic.Int32
	EachOn(5, 16, func(int) { calls.Add(1) })
	if calls.Load() != 5 {
		t.Fatalf("EachOn: %d calls, want 5", calls.Load())
	}
}

// Package cores runs independent pieces of work on several goroutines: the
// hashing of skill trees, the checks of skill sources, the imports and
// links of an apply.
package cores

import (
	"runtime"
	"sync"
)

// Each calls do for 0 … n-1 on one goroutine per core. A handful of calls
// (fewer than Few) is not worth the goroutines and runs on the caller's.
func Each(n int, do func(int)) {
	if n < Few {
		for i := range n {
			do(i)
		}
		return
	}
	EachOn(n, runtime.GOMAXPROCS(0), do)
}

// Few is the number of calls below which Each runs them in turn.
const Few = 16

// EachOn calls do for 0 … n-1 on up to workers goroutines.
func EachOn(n, workers int, do func(int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				do(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

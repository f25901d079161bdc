package hub

import (
	"context"
	"sync"
)

// A lifetime is the hub's: a context that ends with Close, and the
// goroutines the hub started under it, which Close waits for.
type lifetime struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	closeMu sync.Mutex
	closed  bool
}

func newLifetime() *lifetime {
	l := &lifetime{}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	return l
}

// goTracked runs fn in a goroutine that close waits for; after close it
// does nothing.
func (l *lifetime) goTracked(fn func()) {
	l.closeMu.Lock()
	defer l.closeMu.Unlock()
	if l.closed {
		return
	}
	l.wg.Go(fn)
}

// close ends the context and waits for every goroutine started under it.
func (l *lifetime) close() {
	l.closeMu.Lock()
	l.closed = true
	l.closeMu.Unlock()
	l.cancel()
	l.wg.Wait()
}

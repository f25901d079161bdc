package relay

import (
	"context"
	"sync"
)

// A Lifetime is the hub's: a context that ends with Close, and the
// goroutines the hub started under it, which Close waits for.
type Lifetime struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	closeMu sync.Mutex
	closed  bool
}

func NewLifetime() *Lifetime {
	l := &Lifetime{}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	return l
}

// Go runs fn in a goroutine that close waits for; after close it
// does nothing.
func (l *Lifetime) Go(fn func()) {
	if l.enter() {
		go func() {
			defer l.wg.Done()
			fn()
		}()
	}
}

// Run runs fn on the calling goroutine, which close waits for as it waits
// for Go's; after close it does nothing.
func (l *Lifetime) Run(fn func()) {
	if l.enter() {
		defer l.wg.Done()
		fn()
	}
}

// enter counts a goroutine close waits for, unless the lifetime is closed.
func (l *Lifetime) enter() bool {
	l.closeMu.Lock()
	defer l.closeMu.Unlock()
	if l.closed {
		return false
	}
	l.wg.Add(1)
	return true
}

// Close ends the context and waits for every goroutine started under it.
func (l *Lifetime) Close() {
	l.closeMu.Lock()
	l.closed = true
	l.closeMu.Unlock()
	l.cancel()
	l.wg.Wait()
}

// Context is the hub's lifetime: it ends with Close.
func (l *Lifetime) Context() context.Context { return l.ctx }

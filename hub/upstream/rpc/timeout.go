package rpc

import (
	"sync"
	"time"
)

// A Timeout is a request's timeout that stops while the client answers
// the upstream (a server→client request made during the call), so that a
// person answering an elicitation does not run the call out of time. The
// zero value is ready for Start.
type Timeout struct {
	mu        sync.Mutex
	timer     *time.Timer
	remaining time.Duration
	started   time.Time
	paused    int
}

// Start runs expire once d has passed, not counting the time paused.
func (t *Timeout) Start(d time.Duration, expire func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.remaining, t.started = d, time.Now()
	t.timer = time.AfterFunc(d, expire)
}

// Pause stops the clock while the client answers the upstream; pauses
// nest.
func (t *Timeout) Pause() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.paused++; t.paused == 1 && t.timer.Stop() {
		t.remaining -= time.Since(t.started)
	}
}

// Resume starts the clock again with the time that was left, once every
// pause ended.
func (t *Timeout) Resume() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.paused--; t.paused == 0 {
		t.started = time.Now()
		t.timer.Reset(max(t.remaining, 0))
	}
}

// Stop ends the timeout: expire will not run.
func (t *Timeout) Stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.timer.Stop()
}

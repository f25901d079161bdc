package rpc

import (
	"testing"
	"time"
)

// TestTimeoutPausesWhileTheClientAnswers: the clock of a call stops while
// the client answers a request the upstream made, and runs on after.
func TestTimeoutPausesWhileTheClientAnswers(t *testing.T) {
	expired := make(chan struct{})
	f := &Timeout{}
	f.Start(time.Hour, func() { close(expired) })
	f.Pause()
	f.Pause() // nested: two requests of the upstream at once
	if f.timer.Stop() {
		t.Fatal("the timer still ran while the client was answering")
	}
	f.Resume()
	if f.timer.Stop() {
		t.Fatal("the timer ran again while one request was still being answered")
	}
	left := f.remaining
	f.Resume()
	if !f.timer.Stop() {
		t.Fatal("the timer did not run again once the client had answered")
	}
	if left <= 0 || left > time.Hour {
		t.Errorf("remaining %s after a pause", left)
	}
	select {
	case <-expired:
		t.Error("the call expired")
	default:
	}
}

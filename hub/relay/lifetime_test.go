package relay

import (
	"testing"

	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// TestLifetimeRun: Close waits for fn that Run runs on the caller's
// goroutine, as for Go's; after Close, Run runs nothing.
func TestLifetimeRun(t *testing.T) {
	l := NewLifetime()
	running, release, ran := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go l.Run(func() {
		close(running)
		<-release
		close(ran)
	})
	waitfor.Receive(t, running, "Run to start fn")
	closed := make(chan struct{})
	go func() {
		l.Close()
		close(closed)
	}()
	waitfor.Receive(t, l.Context().Done(), "Close to end the lifetime's context")
	select {
	case <-closed:
		t.Fatal("Close returned while fn was running")
	default:
	}
	close(release)
	waitfor.Receive(t, closed, "Close to return once fn returned")
	select {
	case <-ran:
	default:
		t.Fatal("Close returned before fn did")
	}
	l.Run(func() { t.Error("Run ran fn after Close") })
}

package hub

import (
	"testing"
	"time"
)

// hangGuard bounds every wait of these tests: far longer than any event
// takes, it only turns a bug that loses an event into a failure, not a hang.
const hangGuard = time.Minute

// receive returns the next value of ch.
func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(hangGuard):
		t.Fatalf("never: %s", what)
	}
	var zero T
	return zero
}

// Package waitfor is the tests' one way to wait for an event: on a
// channel, bounded by a hang guard that only turns a lost event into a
// failure — never a sleep, never a measure of time. For tests only.
package waitfor

import (
	"testing"
	"time"
)

// HangGuard bounds every wait: far longer than any event takes.
const HangGuard = time.Minute

// Receive returns the next value of ch, and fails the test, saying what it
// waited for, when none comes within HangGuard.
func Receive[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(HangGuard):
		t.Fatalf("never: %s", what)
	}
	var zero T
	return zero
}

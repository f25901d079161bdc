package lock

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// A HeldError reports that another process holds the lock.
type HeldError struct {
	Path string
	// Holder is what the holder recorded; zero when it has not written its
	// record yet or wrote something unreadable.
	Holder Holder
	// Waited is how long Acquire waited: its timeout.
	Waited time.Duration
}

func (e *HeldError) Error() string {
	who := "another process"
	if e.Holder.PID != 0 {
		who = fmt.Sprintf("pid %d on host %s since %s", e.Holder.PID, e.Holder.Host, e.Holder.Time.Format(time.RFC3339))
		if e.Holder.Operation != "" {
			who += " (" + e.Holder.Operation + ")"
		}
	}
	if e.Waited > 0 {
		return fmt.Sprintf("state is still locked by %s after waiting %s; wait for it, or retry with a longer --lock-timeout", who, e.Waited)
	}
	return fmt.Sprintf("state is locked by %s; wait for it, or retry with --lock-timeout 30s", who)
}

// held builds the error for a lock found held, reading who holds it.
func held(path string, waited time.Duration) *HeldError {
	e := &HeldError{Path: path, Waited: waited}
	if data, err := os.ReadFile(path); err == nil {
		json.Unmarshal(data, &e.Holder) // an unreadable record leaves Holder zero
	}
	return e
}

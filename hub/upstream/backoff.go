package upstream

import "time"

const (
	// firstBackoff is the wait before the first restart after a failure;
	// it doubles with each failure in a row, up to maxBackoff.
	firstBackoff = 250 * time.Millisecond
	maxBackoff   = 30 * time.Second
	// healthyAfter is how long a session must have run for its failure to
	// count as the first in a row again.
	healthyAfter = time.Minute
	// maxRestartWait is the longest backoff a call waits out before
	// restarting; during a longer one calls fail at once.
	maxRestartWait = 2 * time.Second
)

// backoff returns the wait before restarting after n failures in a row.
func backoff(n int) time.Duration {
	d := firstBackoff
	for i := 1; i < n && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, maxBackoff)
}

//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Used returns the CPU time (user + system) this process has used so far,
// or 0 when the system does not say.
func Used() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

//go:build unix

package upstream

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user + system) this process has used so far:
// the wire benchmarks report it per call, a steadier reading than wall
// time on a shared machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

package cputime

import (
	"testing"
	"time"
)

// ReportPerOp reports the CPU time the process used per operation of b
// since start (a reading of Used), as "cpu-µs/call".
func ReportPerOp(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((Used()-start).Nanoseconds())/1e3/float64(b.N), "cpu-µs/call")
}

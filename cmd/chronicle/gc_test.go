package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// Short commands collect less often under a soft limit; serve and chronova
// go back to the default; GOGC set by the user is left alone.
func TestGCPacing(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, name := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Setenv(name, "") // restored after the test
		os.Unsetenv(name)
	}
	paceGC()
	if got := debug.SetGCPercent(100); got != oneShotGCPercent {
		t.Fatalf("GC percent %d after paceGC, want %d", got, oneShotGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != memoryLimit {
		t.Fatalf("memory limit %d after paceGC, want %d", got, memoryLimit)
	}
	paceGC()
	longRunning()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GC percent %d for a long-running command, want 100", got)
	}
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	paceGC()
	longRunning()
	if got := debug.SetGCPercent(100); got != 50 {
		t.Fatalf("GC percent %d with GOGC=50 set, want it left at 50", got)
	}
}

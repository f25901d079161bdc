package gcpace

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
	Short()
	if got := debug.SetGCPercent(100); got != OneShotGCPercent {
		t.Fatalf("GC percent %d after Short, want %d", got, OneShotGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != MemoryLimit {
		t.Fatalf("memory limit %d after Short, want %d", got, MemoryLimit)
	}
	Short()
	LongRunning()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GC percent %d for a long-running command, want 100", got)
	}
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	Short()
	LongRunning()
	if got := debug.SetGCPercent(100); got != 50 {
		t.Fatalf("GC percent %d with GOGC=50 set, want it left at 50", got)
	}
}

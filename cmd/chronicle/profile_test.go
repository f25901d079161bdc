package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The profiles the environment asks for are written, through the seam,
// when the command ends.
func TestProfilesAreWrittenAtTheEnd(t *testing.T) {
	dir := t.TempDir()
	cpu, mem, tr := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof"), filepath.Join(dir, "run.trace")
	t.Setenv("CHRONICLE_CPUPROFILE", cpu)
	t.Setenv("CHRONICLE_MEMPROFILE", mem)
	t.Setenv("CHRONICLE_TRACE", tr)
	rate := runtime.MemProfileRate
	t.Cleanup(func() { runtime.MemProfileRate = rate })
	stop := profile()
	for _, p := range []string{cpu, mem, tr} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Fatalf("%s exists before the command ends: %v", p, err)
		}
	}
	stop()
	for _, p := range []string{cpu, mem, tr} {
		if info, err := os.Stat(p); err != nil || info.Size() == 0 {
			t.Fatalf("%s after the command: %v", p, err)
		}
	}
}

package main

import (
	"os"
	"runtime/debug"
)

// How the Go garbage collector is paced (docs/decisions/0050). Most
// commands run for a fraction of a second: collecting when the heap has
// grown fivefold instead of twofold halves the collections' CPU (a
// realistic plan: 38 → 24 ms of CPU), and a soft limit keeps a plan of
// thousands of items under 100 MB all the same — near the limit the
// collector runs sooner; it never fails an allocation. GOGC and GOMEMLIMIT
// override both.
const (
	oneShotGCPercent = 400
	memoryLimit      = 80 << 20
)

// paceGC sets the pacing for a short command.
func paceGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(oneShotGCPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(memoryLimit)
	}
}

// longRunning gives a command that serves until stopped (serve, chronova)
// the default pacing back: its heap stays near what it keeps live.
func longRunning() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(100)
	}
}

// Package gcpace paces the Go garbage collector for chronicle's commands,
// from the first allocation of the process on: it is initialised before
// the packages whose initialisation allocates (it imports nothing else), so
// that the start-up of a command — several megabytes of tables, and the
// reading package early starts beside it — triggers no collection.
//
// Most commands run for a fraction of a second: collecting when the heap
// has grown fivefold instead of twofold halves the collections' CPU (a
// realistic plan: 38 → 24 ms of CPU), and a soft limit keeps a plan of
// thousands of items under 100 MB all the same — near the limit the
// collector runs sooner; it never fails an allocation. GOGC and GOMEMLIMIT
// override both (docs/decisions/0050). A test binary keeps the runtime's
// defaults.
package gcpace

import (
	"os"
	"runtime/debug"
	"testing"
)

// How a short command is paced.
const (
	OneShotGCPercent = 400
	MemoryLimit      = 80 << 20
)

func init() {
	if !testing.Testing() {
		Short()
	}
}

// Short sets the pacing for a short command.
func Short() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(OneShotGCPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(MemoryLimit)
	}
}

// LongRunning gives a command that serves until stopped (serve, chronova)
// the default pacing back: its heap stays near what it keeps live.
func LongRunning() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(100)
	}
}

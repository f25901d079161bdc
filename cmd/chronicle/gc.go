package main

import (
	"runtime/debug"
)

// How the Go garbage collector is paced for a one-shot command (plan,
// apply, scan, …: docs/decisions/0050 and 0060). Such a command runs for a
// fraction of a second: collecting when the heap has grown fivefold
// instead of twofold saves most of the collections' CPU (a realistic plan
// about 8–10 ms of its wall time), and a soft limit keeps a plan of
// thousands of items under 100 MB all the same — near the limit the
// collector runs sooner; it never fails an allocation.
const (
	oneShotGCPercent = 400
	oneShotMemLimit  = 80 << 20
)

// longRunning names the commands that serve until stopped: their heap
// stays near what they keep live with the runtime's default pacing.
var longRunning = map[string]bool{"serve": true, "chronova": true}

// A gcPacing is what the collector is set to for one command; zero fields
// leave the runtime's setting as it is.
type gcPacing struct {
	percent int   // debug.SetGCPercent
	limit   int64 // debug.SetMemoryLimit, bytes
}

// pacingFor returns the pacing of the command named command (as cobra
// resolves the command line): a one-shot command's, unless GOGC or
// GOMEMLIMIT is set in the environment (lookupEnv), which then wins; none
// for a long-running command.
func pacingFor(command string, lookupEnv func(string) (string, bool)) gcPacing {
	var p gcPacing
	if longRunning[command] {
		return p
	}
	if _, set := lookupEnv("GOGC"); !set {
		p.percent = oneShotGCPercent
	}
	if _, set := lookupEnv("GOMEMLIMIT"); !set {
		p.limit = oneShotMemLimit
	}
	return p
}

// set applies p to the process.
func (p gcPacing) set() {
	if p.percent != 0 {
		debug.SetGCPercent(p.percent)
	}
	if p.limit != 0 {
		debug.SetMemoryLimit(p.limit)
	}
}

package main

import (
	"os"
	"runtime/debug"
)

// memoryLimit is the soft limit on the Go heap (see Main).
const memoryLimit = 80 << 20

func main() {
	os.Exit(Main())
}

// Main runs chronicle with the process's arguments and standard streams and
// returns the exit code.
func Main() int {
	// A soft limit on the Go heap: a plan of thousands of items keeps about
	// 40 MB live, and the default pacing lets the heap grow to twice that
	// before collecting. Near the limit the collector runs sooner instead;
	// it never fails an allocation. GOMEMLIMIT overrides it.
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(memoryLimit)
	}
	stop := profile()
	defer stop()
	a := newApp(os.Stdin, os.Stdout, os.Stderr)
	return a.run(os.Args[1:])
}

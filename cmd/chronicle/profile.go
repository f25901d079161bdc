package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// profile starts the profiles the environment asks for — a CPU profile to
// CHRONICLE_CPUPROFILE, a heap profile to CHRONICLE_MEMPROFILE, a runtime
// trace (go tool trace) to CHRONICLE_TRACE — and returns
// the function that writes them out. bench/profile.sh uses it to profile the
// whole process as a user runs it. Each profile is gathered in memory and
// written at the end through the filesystem seam, like every other write.
func profile() (stop func()) {
	var stops []func()
	// record gathers what start writes, from start to the end, for the
	// path the variable env names.
	record := func(env string, start func(io.Writer) error, stop func()) {
		path := os.Getenv(env)
		if path == "" {
			return
		}
		var buf bytes.Buffer
		if err := start(&buf); err != nil {
			fmt.Fprintln(os.Stderr, "chronicle:", env+":", err)
			return
		}
		stops = append(stops, func() {
			stop()
			writeProfile(env, path, buf.Bytes())
		})
	}
	record("CHRONICLE_CPUPROFILE", pprof.StartCPUProfile, pprof.StopCPUProfile)
	record("CHRONICLE_TRACE", trace.Start, trace.Stop)
	if path := os.Getenv("CHRONICLE_MEMPROFILE"); path != "" {
		runtime.MemProfileRate = 4096
		stops = append(stops, func() {
			var buf bytes.Buffer
			if err := pprof.Lookup("allocs").WriteTo(&buf, 0); err != nil {
				fmt.Fprintln(os.Stderr, "chronicle: CHRONICLE_MEMPROFILE:", err)
				return
			}
			writeProfile("CHRONICLE_MEMPROFILE", path, buf.Bytes())
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

// writeProfile writes one profile to path, saying on stderr why it could
// not (the variable named by from gave the path).
func writeProfile(from, path string, data []byte) {
	if err := (fsys.OS{}).WriteFile(path, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "chronicle:", from+":", err)
	}
}

package main

import (
	"bytes"
	"fmt"
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
	if path := os.Getenv("CHRONICLE_CPUPROFILE"); path != "" {
		var buf bytes.Buffer
		if err := pprof.StartCPUProfile(&buf); err != nil {
			fmt.Fprintln(os.Stderr, "chronicle: CHRONICLE_CPUPROFILE:", err)
		} else {
			stops = append(stops, func() {
				pprof.StopCPUProfile()
				writeProfile("CHRONICLE_CPUPROFILE", path, buf.Bytes())
			})
		}
	}
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
	if path := os.Getenv("CHRONICLE_TRACE"); path != "" {
		var buf bytes.Buffer
		if err := trace.Start(&buf); err != nil {
			fmt.Fprintln(os.Stderr, "chronicle: CHRONICLE_TRACE:", err)
		} else {
			stops = append(stops, func() {
				trace.Stop()
				writeProfile("CHRONICLE_TRACE", path, buf.Bytes())
			})
		}
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

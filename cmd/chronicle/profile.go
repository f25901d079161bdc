package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profile starts the profiles the environment asks for — a CPU profile to
// CHRONICLE_CPUPROFILE, a heap profile to CHRONICLE_MEMPROFILE — and returns
// the function that writes them out. bench/profile.sh uses it to profile the
// whole process as a user runs it.
func profile() (stop func()) {
	var stops []func()
	if path := os.Getenv("CHRONICLE_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		} else {
			fmt.Fprintln(os.Stderr, "chronicle: CHRONICLE_CPUPROFILE:", err)
		}
	}
	if path := os.Getenv("CHRONICLE_MEMPROFILE"); path != "" {
		runtime.MemProfileRate = 4096
		stops = append(stops, func() {
			f, err := os.Create(path)
			if err != nil {
				fmt.Fprintln(os.Stderr, "chronicle: CHRONICLE_MEMPROFILE:", err)
				return
			}
			defer f.Close()
			pprof.Lookup("allocs").WriteTo(f, 0)
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

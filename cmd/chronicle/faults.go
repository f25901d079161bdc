package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// killAtEnv names the variable that makes apply kill itself with SIGKILL
// right before its Nth write to the machine, through the filesystem seam:
// how the crash test interrupts apply at every kind of moment,
// deterministically. Apply prints how many writes it made when it ends
// (with N = 0 nothing is killed; with N beyond its writes neither: the
// number of state saves apply makes on the way depends on how long it
// takes). Unset — always, outside that test — apply writes through the
// plain filesystem.
const killAtEnv = "CHRONICLE_TEST_KILL_AT_WRITE"

// applySystem is the filesystem apply writes through.
func (a *app) applySystem() (fsys.System, func()) {
	v, ok := os.LookupEnv(killAtEnv)
	if !ok {
		return fsys.OS{}, func() {}
	}
	at, _ := strconv.Atoi(v)
	var mu sync.Mutex
	n := 0
	rec := &fsys.Recorder{System: fsys.OS{}, Before: func(op fsys.Op) error {
		switch op.Name {
		case "Lstat", "Stat", "ReadFile", "ReadDir", "Readlink", "Open", "ReadVersion":
			return nil
		}
		mu.Lock()
		n++
		hit := n == at
		mu.Unlock()
		if hit {
			if self, err := os.FindProcess(os.Getpid()); err == nil {
				_ = self.Kill() // SIGKILL
			}
			select {} // the signal ends the process
		}
		return nil
	}}
	return rec, func() {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(a.stderr, "writes: %d\n", n)
	}
}

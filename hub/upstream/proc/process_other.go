//go:build !unix

package proc

import (
	"os"
	"os/exec"
)

const (
	sigTerm = 0
	sigKill = 1
)

// setProcessGroup does nothing where there are no process groups.
func setProcessGroup(*exec.Cmd) {}

// signalGroup kills the process itself where there are no process groups.
func signalGroup(pid int, sig int) {
	if sig == sigKill {
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	}
}

//go:build !unix

package cputime

import "time"

// Used returns 0: the CPU time is not measured here.
func Used() time.Duration { return 0 }

package autostart

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// LockTimeout is how long the timer's sync waits for the state lock: a
// person's apply may hold it, and a timer that gave up at once would fail
// for no reason.
const LockTimeout = 5 * time.Minute

// MinEvery and MaxEvery bound the interval: a sync more often than each
// minute would mostly wait for the lock, and Task Scheduler repeats a task
// at most every 31 days (its schema's Interval, PT1M to P31D).
const (
	MinEvery = time.Minute
	MaxEvery = 31 * 24 * time.Hour
)

// A Job is what the scheduler runs, and how.
type Job struct {
	// Binary is the absolute path of chronicle.
	Binary string
	// ChronicleHome is chronicle's folder (~/.chronicle or --home); HomeFlag
	// says whether the commands need --home because it is not the default.
	ChronicleHome string
	HomeFlag      bool
	// Every is the interval between two syncs.
	Every time.Duration
	// SkipConflicts adds --skip-conflicts to the sync.
	SkipConflicts bool
	// TokenEnv adds --token-env NAME to the sync: the variable is read from
	// the environment, else from ~/.chronicle/env.
	TokenEnv string
	// Path is the PATH of the shell that installed the job: presence found
	// on PATH then decides the same under the scheduler as by hand.
	Path string
	// Serve adds a job that keeps chronicle serve running.
	Serve bool
}

// Check returns an error a user can act on when the job cannot run.
func (j Job) Check() error {
	if !filepath.IsAbs(j.Binary) {
		return fmt.Errorf("the chronicle binary %q is not an absolute path", j.Binary)
	}
	if j.Every < MinEvery || j.Every > MaxEvery {
		return fmt.Errorf("--sync-every %s: the interval must be at least %s and at most 31 days", Text(j.Every), Text(MinEvery))
	}
	return nil
}

// EnvFile is ~/.chronicle/env, where a private repository's token lives
// (never in a unit file).
func (j Job) EnvFile() string { return filepath.Join(j.ChronicleHome, "env") }

// SyncArgs are the arguments of the sync the scheduler runs.
func (j Job) SyncArgs() []string {
	args := []string{"sync", "--lock-timeout", lockTimeoutText}
	if j.SkipConflicts {
		args = append(args, "--skip-conflicts")
	}
	if j.TokenEnv != "" {
		args = append(args, "--token-env", j.TokenEnv)
	}
	return j.withHome(args)
}

// lockTimeoutText is LockTimeout as people write it.
const lockTimeoutText = "5m"

// ServeArgs are the arguments of the hub the scheduler keeps running.
func (j Job) ServeArgs() []string { return j.withHome([]string{"serve"}) }

func (j Job) withHome(args []string) []string {
	if j.HomeFlag {
		args = append(args, "--home", j.ChronicleHome)
	}
	return args
}

// Text writes an interval as people write it: "15m", "1h", "1h30m", "90s".
func Text(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

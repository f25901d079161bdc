package main

import (
	"runtime/debug"
	"testing"
)

// One-shot commands collect less often under a soft limit; serve and
// chronova keep the runtime's default; GOGC or GOMEMLIMIT set by the user
// wins over the pacing it would replace.
func TestPacingFor(t *testing.T) {
	oneShot := gcPacing{percent: oneShotGCPercent, limit: oneShotMemLimit}
	for _, tc := range []struct {
		command string
		env     map[string]string
		want    gcPacing
	}{
		{"plan", nil, oneShot},
		{"apply", nil, oneShot},
		{"version", nil, oneShot},
		{"", nil, oneShot}, // no command: help, or a usage error
		{"serve", nil, gcPacing{}},
		{"chronova", nil, gcPacing{}},
		{"plan", map[string]string{"GOGC": "50"}, gcPacing{limit: oneShotMemLimit}},
		{"plan", map[string]string{"GOMEMLIMIT": "1GiB"}, gcPacing{percent: oneShotGCPercent}},
		{"plan", map[string]string{"GOGC": "off", "GOMEMLIMIT": "1GiB"}, gcPacing{}},
		{"serve", map[string]string{"GOGC": "50"}, gcPacing{}},
	} {
		lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
		if got := pacingFor(tc.command, lookup); got != tc.want {
			t.Errorf("%q with %v: pacing %+v, want %+v", tc.command, tc.env, got, tc.want)
		}
	}
}

// The command is the one cobra runs, whatever global flags come first, and
// every long-running command is one of chronicle's.
func TestCommandName(t *testing.T) {
	root := newApp(nil, nil, nil).rootCommand()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "--detailed-exitcode"}, "plan"},
		{[]string{"serve", "--stdio"}, "serve"},
		{[]string{"--home", "/srv/ch", "serve", "--listen", "127.0.0.1:0"}, "serve"},
		{[]string{"-C", "dots", "--no-color", "chronova", "--http"}, "chronova"},
		{[]string{"-no-color", "apply", "-auto-approve"}, "apply"},
		{[]string{"skills", "list"}, "list"},
		{[]string{"help", "serve"}, ""}, // cobra adds help when it executes
		{nil, "chronicle"},
		{[]string{"no-such-command"}, ""},
	} {
		if got := commandName(root, tc.args); got != tc.want {
			t.Errorf("%q: command %q, want %q", tc.args, got, tc.want)
		}
	}
	top := map[string]bool{}
	for _, c := range root.Commands() {
		top[c.Name()] = true
	}
	for name := range longRunning {
		if !top[name] {
			t.Errorf("long-running command %q is not a command of chronicle", name)
		}
	}
}

// set gives the process the pacing; zero fields leave it as it was.
func TestPacingSet(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	gcPacing{percent: oneShotGCPercent, limit: oneShotMemLimit}.set()
	if got := debug.SetGCPercent(-1); got != oneShotGCPercent {
		t.Fatalf("GC percent %d, want %d", got, oneShotGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != oneShotMemLimit {
		t.Fatalf("memory limit %d, want %d", got, oneShotMemLimit)
	}
	debug.SetGCPercent(70)
	gcPacing{limit: 1 << 30}.set()
	if got := debug.SetGCPercent(-1); got != 70 {
		t.Fatalf("GC percent %d after a pacing without one, want 70 left alone", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Fatalf("memory limit %d, want 1 GiB", got)
	}
}

//go:build unix

// Command sidebyside times whole chronicle processes of two or more
// binaries on one home, interleaved: each round runs every binary once per
// command, in an order that rotates from round to round, so that the
// machine's drifting load falls on all of them alike. It prints each
// binary's median wall time, CPU time (user + system: steadier than the
// wall time on a loaded machine) and peak RSS per command, and each
// binary's difference from the first one, round by round (the paired
// median).
//
//	go run ./bench/planapply -bins x=BIN -sizes realistic -setup /tmp/home
//	(cd /tmp/home/dots && HOME=/tmp/home BIN apply --auto-approve)
//	go run ./bench/sidebyside -bins before=A,after=B -home /tmp/home -runs 41
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	var (
		bins = flag.String("bins", "", "comma-separated name=path of chronicle binaries, the reference first")
		home = flag.String("home", "", "the home to run in (HOME; the commands run in HOME/dots)")
		runs = flag.Int("runs", 31, "rounds")
		cmds = flag.String("cmds", "plan --detailed-exitcode;version", "semicolon-separated commands, each run in every round")
	)
	flag.Parse()
	if *bins == "" || *home == "" {
		fmt.Fprintln(os.Stderr, "usage: sidebyside -bins name=path,... -home DIR [-runs N] [-cmds 'plan;version']")
		os.Exit(2)
	}
	type bin struct{ name, path string }
	var binaries []bin
	for _, b := range strings.Split(*bins, ",") {
		name, path, _ := strings.Cut(b, "=")
		binaries = append(binaries, bin{name, path})
	}
	commands := strings.Split(*cmds, ";")
	// samples[cmd][bin][round]
	samples := make([][][]sample, len(commands))
	for c := range commands {
		samples[c] = make([][]sample, len(binaries))
	}
	for round := range *runs + 1 {
		for c, command := range commands {
			for k := range binaries {
				i := (k + round) % len(binaries)
				s, err := run(binaries[i].path, *home, strings.Fields(command))
				if err != nil {
					fmt.Fprintf(os.Stderr, "%s %s: %v\n", binaries[i].name, command, err)
					os.Exit(1)
				}
				if round > 0 { // the first round warms the page cache
					samples[c][i] = append(samples[c][i], s)
				}
			}
		}
	}
	for c, command := range commands {
		fmt.Printf("== %s (%d rounds) ==\n", command, *runs)
		for i, b := range binaries {
			ss := samples[c][i]
			wall, cpu := field(ss, func(s sample) time.Duration { return s.wall }), field(ss, func(s sample) time.Duration { return s.cpu })
			fmt.Printf("  %-8s wall median %6.1f ms (min %6.1f)  CPU median %6.1f ms  peak RSS median %5.1f MB\n",
				b.name, ms(median(wall)), ms(slices.Min(wall)), ms(median(cpu)), float64(medianRSS(ss))/1024)
			if i > 0 {
				ref := samples[c][0]
				dw, dc := make([]time.Duration, len(ss)), make([]time.Duration, len(ss))
				for r := range ss {
					dw[r], dc[r] = ss[r].wall-ref[r].wall, ss[r].cpu-ref[r].cpu
				}
				fmt.Printf("  %-8s − %s, round by round: wall median %+.1f ms, CPU median %+.1f ms\n",
					b.name, binaries[0].name, ms(median(dw)), ms(median(dc)))
			}
		}
	}
}

// A sample is one process's wall time, CPU time and peak RSS (KiB).
type sample struct {
	wall, cpu time.Duration
	maxRSS    int64
}

// run runs bin with args in home/dots.
func run(bin, home string, args []string) (sample, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = filepath.Join(home, "dots")
	cmd.Env = append(environ(), "HOME="+home)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%w\n%s", err, out.String())
	}
	s := sample{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.maxRSS = ru.Maxrss
	}
	return s, nil
}

// environ is the process's environment without the variables that point
// chronicle or a tool elsewhere than HOME.
func environ() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "XDG_CONFIG_HOME", "CODEX_HOME", "CHRONICLE_HOME", "CLAUDE_CONFIG_DIR":
			continue
		}
		out = append(out, kv)
	}
	return out
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func field(ss []sample, f func(sample) time.Duration) []time.Duration {
	out := make([]time.Duration, len(ss))
	for i, s := range ss {
		out[i] = f(s)
	}
	return out
}

func medianRSS(ss []sample) int64 {
	rs := make([]int64, len(ss))
	for i, s := range ss {
		rs[i] = s.maxRSS
	}
	slices.Sort(rs)
	return rs[len(rs)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

//go:build linux

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"golang.org/x/sys/unix"
)

// A report holds every round's figures of every server.
type report struct {
	loads []string // /proc/loadavg, at each table's start
	lat   []table
	tput  *table
	mem   []memRow
}

// A table is one measurement of several servers, per server per round.
type table struct {
	what  string
	names []string
	a, b  [][]float64 // latency: p50, p99 in µs; throughput: calls/s, 0
	cpu   [][]float64 // µs of the server's CPU per call
	// throughput: µs of CPU per call of the clients (this process) and
	// of the server's children (its upstream)
	client, up [][]float64
}

func newTable(what string, names []string, runs int) *table {
	t := &table{what: what, names: names}
	for range names {
		t.a, t.b, t.cpu = append(t.a, make([]float64, 0, runs)), append(t.b, make([]float64, 0, runs)), append(t.cpu, make([]float64, 0, runs))
		t.client, t.up = append(t.client, make([]float64, 0, runs)), append(t.up, make([]float64, 0, runs))
	}
	return t
}

func (t *table) index(name string) int { return slices.Index(t.names, name) }

// A memRow is a server's memory in MB.
type memRow struct {
	name                 string
	rss, hwm, anon, file float64 // with the sessions open, tokenizer loaded
	after                float64 // after the load rounds
}

// interleave runs measure on every server once per round, the order
// rotating from round to round, so that a load that drifts falls on all
// of them alike.
func interleave(ctx context.Context, runs, n int, measure func(i int) error) error {
	for r := range runs {
		for k := range n {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err := measure((r + k) % n); err != nil {
				return err
			}
		}
	}
	return nil
}

// latency runs rounds of sequential calls on each session, interleaved.
func (r *report) latency(ctx context.Context, cfg config, transport string, names []string, ss []session, pids []int) error {
	r.loads = append(r.loads, loadavg())
	for i, s := range ss { // warm up: a hub starts its upstream on the first call
		if _, _, err := sequential(s, cfg.calls/4); err != nil {
			return fmt.Errorf("%s, %s: %w", transport, names[i], err)
		}
	}
	t := newTable(transport, names, cfg.runs)
	err := interleave(ctx, cfg.runs, len(ss), func(i int) error {
		cpu0, err := cpuTime(pids[i])
		if err != nil {
			return err
		}
		p50, p99, err := sequential(ss[i], cfg.calls)
		if err != nil {
			return fmt.Errorf("%s, %s: %w", transport, names[i], err)
		}
		cpu1, err := cpuTime(pids[i])
		if err != nil {
			return err
		}
		t.a[i], t.b[i] = append(t.a[i], p50), append(t.b[i], p99)
		t.cpu[i] = append(t.cpu[i], float64((cpu1-cpu0).Microseconds())/float64(cfg.calls))
		return nil
	})
	r.lat = append(r.lat, *t)
	return err
}

// sequential makes n calls one after another and returns p50 and p99 in µs.
func sequential(s session, n int) (float64, float64, error) {
	d := make([]time.Duration, n)
	for i := range d {
		t := time.Now()
		if err := s.call(); err != nil {
			return 0, 0, err
		}
		d[i] = time.Since(t)
	}
	slices.Sort(d)
	us := func(x time.Duration) float64 { return float64(x.Nanoseconds()) / 1e3 }
	return us(d[n/2]), us(d[n*99/100]), nil
}

// throughput runs load rounds on each server's sessions, interleaved,
// with the CPU its process used per call.
func (r *report) throughput(ctx context.Context, cfg config, names []string, ss [][]session, pids []int) error {
	r.loads = append(r.loads, loadavg())
	r.tput = newTable(fmt.Sprintf("%d HTTP sessions", cfg.sessions), names, cfg.runs)
	return interleave(ctx, cfg.runs, len(ss), func(i int) error {
		cs, cpu, err := load(ss[i], cfg.load, pids[i])
		if err != nil {
			return fmt.Errorf("load, %s: %w", names[i], err)
		}
		r.tput.client[i], r.tput.up[i] = append(r.tput.client[i], cpu.client), append(r.tput.up[i], cpu.up)
		r.tput.a[i], r.tput.cpu[i] = append(r.tput.a[i], cs), append(r.tput.cpu[i], cpu.server)
		return nil
	})
}

// loadCPU is the µs of CPU (user + system) a load round's processes used
// per call: the server's own, the clients' (this process) and the
// server's children's (its upstream). The calls/s of two cores is bounded
// by their sum.
type loadCPU struct{ server, client, up float64 }

// load calls on every session at once for d, and returns calls/s and the
// CPU per call of pid, of the clients and of pid's children.
func load(sessions []session, d time.Duration, pid int) (float64, loadCPU, error) {
	procs := append([]int{pid, os.Getpid()}, childrenOf(pid)...)
	cpu0, err := cpuTimes(procs)
	if err != nil {
		return 0, loadCPU{}, err
	}
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	counts := make([]int, len(sessions))
	errs := make([]error, len(sessions))
	for i, s := range sessions {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				if errs[i] = s.call(); errs[i] != nil {
					return
				}
				counts[i]++
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu1, err := cpuTimes(procs)
	if err != nil {
		return 0, loadCPU{}, err
	}
	n := 0
	for i := range counts {
		if errs[i] != nil {
			return 0, loadCPU{}, errs[i]
		}
		n += counts[i]
	}
	perCall := func(from, to int) float64 {
		var d time.Duration
		for k := from; k < to; k++ {
			d += cpu1[k] - cpu0[k]
		}
		return float64(d.Microseconds()) / float64(n)
	}
	return float64(n) / elapsed.Seconds(), loadCPU{perCall(0, 1), perCall(1, 2), perCall(2, len(procs))}, nil
}

// cpuTimes is cpuTime of each process.
func cpuTimes(pids []int) ([]time.Duration, error) {
	out := make([]time.Duration, len(pids))
	for i, pid := range pids {
		var err error
		if out[i], err = cpuTime(pid); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// childrenOf lists a process's children (/proc/PID/task/*/children).
func childrenOf(pid int) []int {
	var out []int
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, t := range tasks {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		for _, f := range strings.Fields(string(b)) {
			if k, err := strconv.Atoi(f); err == nil {
				out = append(out, k)
			}
		}
	}
	return out
}

// cpuTime is the CPU time a process has run for, user and system, its own
// threads' and not its children's: the kernel's CPU clock of the process
// (what clock_getcpuclockid names), to the nanosecond. /proc/PID/stat
// counts it in ticks of 10 ms, 5 µs a call over a round of 2,000 calls.
func cpuTime(pid int) (time.Duration, error) {
	var ts unix.Timespec
	// MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED), as glibc makes it.
	if err := unix.ClockGettime(int32(^pid<<3|2), &ts); err != nil {
		return 0, fmt.Errorf("the CPU clock of process %d: %w", pid, err)
	}
	return time.Duration(ts.Nano()), nil
}

// loadavg is the machine's load average over 1, 5 and 15 minutes.
func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// memory returns VmRSS and VmHWM of a process in MB.
func memory(pid int) (rss, hwm float64, err error) {
	m, err := status(pid)
	return m["VmRSS"], m["VmHWM"], err
}

// status returns the memory figures of /proc/PID/status in MB.
func status(pid int) (map[string]float64, error) {
	out := map[string]float64{}
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || !strings.HasSuffix(v, " kB") {
			continue
		}
		kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
		out[k] = kb / 1024
	}
	return out, sc.Err()
}

// spread formats the median of xs with its range.
func spread(xs []float64, format string) string {
	if len(xs) == 0 {
		return ""
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	f := func(x float64) string { return fmt.Sprintf(format, x) }
	return f(median(s)) + " [" + f(s[0]) + "…" + f(s[len(s)-1]) + "]"
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// pairwise is, round by round, f of server i's figure and server j's.
func pairwise(xs [][]float64, i, j int, f func(a, b float64) float64) []float64 {
	if i < 0 || j < 0 {
		return nil
	}
	out := make([]float64, min(len(xs[i]), len(xs[j])))
	for r := range out {
		out[r] = f(xs[i][r], xs[j][r])
	}
	return out
}

func minus(a, b float64) float64 { return a - b }

func (r *report) print(w io.Writer, cfg config) {
	fmt.Fprintf(w, "median [min…max] of %d rounds, servers interleaved in each round; load average (1, 5, 15 min) at the start of each part: %s, at the end: %s\n\n",
		cfg.runs, strings.Join(r.loads, "; "), loadavg())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, t := range r.lat {
		fmt.Fprintf(tw, "tools/call over %s, µs (%d calls/round)\tp50\tp99\tCPU/call\tp50 − direct\tp50 − forwarder\tp50, CPU − baseline\tgoal\n", t.what, cfg.calls)
		d, f, b := t.index("direct"), t.index("forwarder"), t.index("baseline")
		for i, name := range t.names {
			goal := ""
			switch {
			case name == "hub" && t.what == "stdio":
				goal = "≤ +50 over direct"
			case name == "hub":
				goal = "≤ +30 over the forwarder"
			}
			vsDirect, vsFwd := "", ""
			if i != d {
				vsDirect = spread(pairwise(t.a, i, d, minus), "%+.0f")
			}
			if i != f && i != d {
				vsFwd = spread(pairwise(t.a, i, f, minus), "%+.0f")
			}
			vsBase := "" // paired round by round: a change's gain against the spread of the differences
			if name == "hub" && b >= 0 {
				vsBase = spread(pairwise(t.a, i, b, minus), "%+.0f") + "; " + spread(pairwise(t.cpu, i, b, minus), "%+.1f")
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, spread(t.a[i], "%.0f"), spread(t.b[i], "%.0f"),
				spread(t.cpu[i], "%.1f"), vsDirect, vsFwd, vsBase, goal)
		}
		fmt.Fprintln(tw, "\t\t\t\t\t\t\t")
	}
	if t := r.tput; t != nil {
		fmt.Fprintf(tw, "calls/s, %s (%s rounds)\tcalls/s\tCPU/call, µs\t%% of the forwarder's\tclients' CPU/call\tupstream's CPU/call\tcalls/s %%, CPU − baseline\tgoal\n", t.what, cfg.load)
		f, b := t.index("forwarder"), t.index("baseline")
		for i, name := range t.names {
			goal, share, vsBase := "", "", ""
			if name == "hub" {
				goal = "≥ 90 % of the forwarder's"
				if b >= 0 { // paired round by round, as the latency tables
					vsBase = spread(pairwise(t.a, i, b, func(a, b float64) float64 { return 100 * a / b }), "%.0f") + "; " + spread(pairwise(t.cpu, i, b, minus), "%+.1f")
				}
			}
			if i != f && f >= 0 && name != "direct" {
				share = spread(pairwise(t.a, i, f, func(a, b float64) float64 { return 100 * a / b }), "%.0f")
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, spread(t.a[i], "%.0f"), spread(t.cpu[i], "%.1f"), share,
				spread(t.client[i], "%.1f"), spread(t.up[i], "%.1f"), vsBase, goal)
		}
		fmt.Fprintln(tw, "\t\t\t\t\t\t\t")
	}
	if len(r.mem) > 0 {
		fmt.Fprintf(tw, "RSS, MB: %d sessions × 100 calls, hubs' tokenizer loaded\tVmRSS\tanonymous\tfile-backed\tpeak (VmHWM)\tafter the load rounds\tgoal\n", cfg.sessions)
		for _, m := range r.mem {
			goal := ""
			if m.name == "hub" {
				goal = "≤ 35"
			}
			fmt.Fprintf(tw, "  %s\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%s\n", m.name, m.rss, m.anon, m.file, m.hwm, m.after, goal)
		}
	}
	tw.Flush()
}

//go:build linux

package main

import (
	"bufio"
	"bytes"
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
)

// A report holds every round's figures.
type report struct {
	lat        []latencyRow
	directCS   []float64 // calls/s, direct
	hubCS      []float64 // calls/s, through the hub
	hubCPU     []float64 // µs of hub CPU per call
	upCPU      []float64 // µs of direct upstream CPU per call
	rss, hwm   float64   // MB, before the load rounds
	anon, file float64   // MB of rss: anonymous (the heap), file-backed (the binary)
	rssAfter   float64   // MB, after them
	hubCalls   int       // calls through the hub in the load rounds
}

// A latencyRow is one transport's p50 and p99 per round, in µs.
type latencyRow struct {
	transport                          string
	directP50, directP99, hub50, hub99 []float64
	added50                            []float64 // per round: hub p50 − direct p50
	hubCPU                             []float64 // per round: µs of hub CPU per call
}

// latency runs rounds of sequential calls on each session, alternating.
func (r *report) latency(ctx context.Context, cfg config, transport string, direct, hub session, hubPID int) error {
	row := latencyRow{transport: transport}
	for _, s := range []session{direct, hub} { // warm up: the hub starts its upstream on the first call
		if _, _, err := sequential(s, cfg.calls/4); err != nil {
			return fmt.Errorf("%s: %w", transport, err)
		}
	}
	for range cfg.runs {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		d50, d99, err := sequential(direct, cfg.calls)
		if err != nil {
			return fmt.Errorf("%s, direct: %w", transport, err)
		}
		cpu0, err := cpuTime(hubPID)
		if err != nil {
			return err
		}
		h50, h99, err := sequential(hub, cfg.calls)
		if err != nil {
			return fmt.Errorf("%s, hub: %w", transport, err)
		}
		cpu1, err := cpuTime(hubPID)
		if err != nil {
			return err
		}
		row.hubCPU = append(row.hubCPU, float64((cpu1-cpu0).Microseconds())/float64(cfg.calls))
		row.directP50, row.directP99 = append(row.directP50, d50), append(row.directP99, d99)
		row.hub50, row.hub99 = append(row.hub50, h50), append(row.hub99, h99)
		row.added50 = append(row.added50, h50-d50)
	}
	r.lat = append(r.lat, row)
	return nil
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

// throughput runs load rounds on each set of sessions, alternating, with
// the CPU its server process used per call.
func (r *report) throughput(ctx context.Context, cfg config, directPID, hubPID int, direct, hub []session) error {
	for range cfg.runs {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		cs, cpu, err := load(direct, cfg.load, directPID)
		if err != nil {
			return fmt.Errorf("load, direct: %w", err)
		}
		r.directCS, r.upCPU = append(r.directCS, cs), append(r.upCPU, cpu)
		if cs, cpu, err = load(hub, cfg.load, hubPID); err != nil {
			return fmt.Errorf("load, hub: %w", err)
		}
		r.hubCalls += int(cs * cfg.load.Seconds())
		r.hubCS, r.hubCPU = append(r.hubCS, cs), append(r.hubCPU, cpu)
	}
	return nil
}

// load calls on every session at once for d, and returns calls/s and the
// µs of CPU (user + system) pid used per call.
func load(sessions []session, d time.Duration, pid int) (float64, float64, error) {
	cpu0, err := cpuTime(pid)
	if err != nil {
		return 0, 0, err
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
	cpu1, err := cpuTime(pid)
	if err != nil {
		return 0, 0, err
	}
	n := 0
	for i := range counts {
		if errs[i] != nil {
			return 0, 0, errs[i]
		}
		n += counts[i]
	}
	return float64(n) / elapsed.Seconds(), float64((cpu1 - cpu0).Microseconds()) / float64(n), nil
}

// cpuTime is the user and system time of a process (its own, not its
// children's), from /proc/PID/stat in clock ticks of 10 ms.
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces: count from after it.
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(fields) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: too short", pid)
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: not a number", pid)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
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

func (r *report) print(w io.Writer, cfg config) {
	fmt.Fprintf(w, "chronicle hub vs the same upstream called directly: median [min…max] of %d rounds, rounds alternating\n\n", cfg.runs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tdirect\thub\tadded by the hub\tgoal")
	for _, l := range r.lat {
		goal := "≤ +150 µs"
		switch l.transport {
		case "stdio":
			goal = "≤ +100 µs"
		case "HTTP, session open at the first catalogue":
			goal = ""
		}
		fmt.Fprintf(tw, "tools/call p50 over %s, µs (%d calls/round)\t%s\t%s\t%s\t%s\n", l.transport, cfg.calls,
			spread(l.directP50, "%.0f"), spread(l.hub50, "%.0f"), spread(l.added50, "%+.0f"), goal)
		fmt.Fprintf(tw, "tools/call p99 over %s, µs\t%s\t%s\t\t\n", l.transport,
			spread(l.directP99, "%.0f"), spread(l.hub99, "%.0f"))
		fmt.Fprintf(tw, "hub CPU per sequential call over %s, µs\t\t%s\t\t\n", l.transport, spread(l.hubCPU, "%.1f"))
	}
	if len(r.hubCS) > 0 {
		fmt.Fprintf(tw, "calls/s, %d HTTP sessions (%s rounds)\t%s\t%s\t\t≥ 10000\n", cfg.sessions, cfg.load,
			spread(r.directCS, "%.0f"), spread(r.hubCS, "%.0f"))
		fmt.Fprintf(tw, "server CPU per call, µs (user+system)\t%s\t%s\t\t\n",
			spread(r.upCPU, "%.1f"), spread(r.hubCPU, "%.1f"))
		fmt.Fprintf(tw, "hub RSS, %d sessions (100 calls each), tokenizer loaded, MB\t\t%.1f (peak VmHWM %.1f)\t%.1f anonymous, %.1f file-backed\t≤ 25\n", cfg.sessions, r.rss, r.hwm, r.anon, r.file)
		fmt.Fprintf(tw, "hub RSS after the load rounds (%d more calls), MB\t\t%.1f\t%+.2f per 1000 calls\t\n", r.hubCalls, r.rssAfter, (r.rssAfter-r.rss)*1000/float64(r.hubCalls))
	}
	tw.Flush()
}

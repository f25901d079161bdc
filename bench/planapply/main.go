//go:build unix

// Command planapply times whole chronicle processes on generated homes: a
// first apply (fresh home each run) and a no-op plan after it, for each
// binary given, side by side. It is run by bench/plan-apply.sh, which builds
// the binaries; it never touches the real home (every run gets a fresh HOME
// under -work).
//
// Sizes: "realistic" is the fixture home (testdata/fixtures/make-home.sh:
// nine tools, a dozen services, a few skills) adopted as it is; "N" is a home
// with N services written into one tool's file (Claude Code's ~/.claude.json)
// and N skills, each linked into two tools' skills folders (Cursor, Gemini);
// "Nu" is the home of N with, besides, N entries and N skills of the user's
// own that chronicle does not manage (half in Claude Code's file and skills
// folder, half in Cursor's file and Gemini's skills folder).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	var (
		bins     = flag.String("bins", "", "comma-separated name=path of chronicle binaries, baseline first")
		sizes    = flag.String("sizes", "realistic,200,2000,2000u", "comma-separated sizes: realistic, N, Nu")
		runs     = flag.Int("runs", 5, "runs per figure")
		work     = flag.String("work", "", "scratch folder (required)")
		fixtures = flag.String("fixtures", "testdata/fixtures", "the fixtures folder (for make-home.sh)")
		applyCap = flag.Duration("apply-cap", 60*time.Second, "an apply still running after this is stopped and reported as over it")
		planRuns = flag.Int("plan-runs", 0, "no-op plans per applied home (default: runs)")
		setup    = flag.String("setup", "", "only lay out one home of the first size at this folder (for profiling), and exit")
	)
	flag.Parse()
	if *setup != "" {
		bin, _, _ := strings.Cut(*bins, ",")
		_, bin, _ = strings.Cut(bin, "=")
		size, _, _ := strings.Cut(*sizes, ",")
		if err := generate(*setup, size, *fixtures, bin); err != nil {
			fail(err)
		}
		return
	}
	if *work == "" || *bins == "" {
		fmt.Fprintln(os.Stderr, "usage: planapply -bins name=path,... -work DIR [-sizes realistic,200,2000,2000u] [-runs N]")
		os.Exit(2)
	}
	if *planRuns == 0 {
		*planRuns = *runs
	}
	type bin struct{ name, path string }
	var binaries []bin
	for _, b := range strings.Split(*bins, ",") {
		name, path, _ := strings.Cut(b, "=")
		binaries = append(binaries, bin{name, path})
	}
	fmt.Println("== start-up floor: chronicle version ==")
	floor := filepath.Join(*work, "floor")
	if err := os.MkdirAll(filepath.Join(floor, "dots"), 0o755); err != nil {
		fail(err)
	}
	for _, b := range binaries {
		var ss []sample
		for range 21 {
			s, err := run(b.path, floor, 0, "version")
			if err != nil {
				fail(err)
			}
			ss = append(ss, s)
		}
		fmt.Printf("  %-9s version    %s\n", b.name, summary(ss, false, 0))
	}
	planMedian := map[string]map[string]time.Duration{}
	applyMedian := map[string]map[string]time.Duration{}
	for _, b := range binaries {
		planMedian[b.name], applyMedian[b.name] = map[string]time.Duration{}, map[string]time.Duration{}
	}
	for _, size := range strings.Split(*sizes, ",") {
		runsHere := *runs
		if size != "realistic" && size != "200" {
			runsHere = max(1, min(*runs, 3))
		}
		fmt.Printf("\n== %s home ==\n", label(size))
		for _, b := range binaries {
			var apply, plan, beside []sample
			var excess []time.Duration
			capped := false
			for i := range runsHere {
				home := filepath.Join(*work, fmt.Sprintf("%s-%s-%d", b.name, size, i))
				if err := generate(home, size, *fixtures, b.path); err != nil {
					fail(err)
				}
				syscall.Sync() // the generated home's writes are not the apply's
				s, err := run(b.path, home, *applyCap, "apply", "--auto-approve")
				if err != nil {
					if s.capped {
						capped = true
						apply = append(apply, s)
						break
					}
					fail(fmt.Errorf("%s apply on %s: %w", b.name, home, err))
				}
				apply = append(apply, s)
				// The first plan after an apply warms the page cache like a
				// user's second command would; the figures are the ones after.
				if _, err := run(b.path, home, 0, "plan", "--detailed-exitcode"); err != nil {
					fail(fmt.Errorf("%s plan after apply on %s is not a no-op: %w", b.name, home, err))
				}
				for range max(1, *planRuns/runsHere) {
					// The floor again, right before each plan: on a shared
					// machine the load drifts, and the plan's excess over
					// the floor is best taken pair by pair.
					v, err := run(b.path, home, 0, "version")
					if err != nil {
						fail(err)
					}
					s, err := run(b.path, home, 0, "plan", "--detailed-exitcode")
					if err != nil {
						fail(fmt.Errorf("%s plan on %s: %w", b.name, home, err))
					}
					plan, beside = append(plan, s), append(beside, v)
					excess = append(excess, s.wall-v.wall)
				}
				// The home stays until the end: ext4 avoids reusing
				// inodes freed in the last seconds and pays for it on
				// every create, so deleting a home just before the next
				// run's apply would slow that apply down several times.
			}
			fmt.Printf("  %-9s apply    %s\n", b.name, summary(apply, capped, *applyCap))
			if !capped {
				applyMedian[b.name][size] = median(apply)
			}
			if len(plan) > 0 {
				planMedian[b.name][size] = median(plan)
				fmt.Printf("  %-9s no-op plan %s  %s\n", b.name, summary(plan, false, 0), linesOf(plan))
				slices.Sort(excess)
				fmt.Printf("  %-9s   the floor (version) before each plan: median %.1f ms; the plan's excess over it, pair by pair: median %.1f ms\n",
					b.name, ms(median(beside)), ms(excess[len(excess)/2]))
			} else {
				fmt.Printf("  %-9s no-op plan (no applied home: the apply did not finish)\n", b.name)
			}
		}
	}
	var names []string
	for _, b := range binaries {
		names = append(names, b.name)
	}
	ratios(names, strings.Split(*sizes, ","), planMedian, applyMedian)
}

// ratios prints, for each binary, how the medians grow from the smallest
// numbered size to the largest (the "10× input ≤ 12× time"), and
// the new binary's medians against the baseline's.
func ratios(names []string, sizes []string, plan, apply map[string]map[string]time.Duration) {
	var nums []string
	for _, s := range sizes {
		if _, err := strconv.Atoi(s); err == nil {
			nums = append(nums, s)
		}
	}
	fmt.Println("\n== ratios ==")
	if len(nums) >= 2 {
		lo, hi := nums[0], nums[len(nums)-1]
		for _, n := range names {
			for what, m := range map[string]map[string]time.Duration{"no-op plan": plan[n], "apply": apply[n]} {
				if m[lo] > 0 && m[hi] > 0 {
					fmt.Printf("  %-9s %-10s %s → %s: %s× input, %.1f× time\n", n, what, lo, hi, ratioOf(hi, lo), float64(m[hi])/float64(m[lo]))
				}
			}
		}
	}
	if len(names) == 2 {
		old, cur := names[0], names[1]
		for _, size := range sizes {
			for what, m := range map[string]map[string]map[string]time.Duration{"no-op plan": plan, "apply": apply} {
				if m[old][size] > 0 && m[cur][size] > 0 {
					fmt.Printf("  %s / %s, %-10s %-9s %.2f\n", cur, old, what, size, float64(m[cur][size])/float64(m[old][size]))
				}
			}
		}
	}
}

func ratioOf(a, b string) string {
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	if y == 0 {
		return "?"
	}
	return strconv.Itoa(x / y)
}

func median(ss []sample) time.Duration {
	walls := make([]time.Duration, len(ss))
	for i, s := range ss {
		walls[i] = s.wall
	}
	slices.Sort(walls)
	return walls[len(walls)/2]
}

func label(size string) string {
	switch size {
	case "realistic":
		return "realistic (fixture home: 9 tools, ~12 services, ~8 skills)"
	case bigClaude, biggerClaude:
		return size + " (the fixture's ~/.claude.json with 3,000 projects of history, 10 services linked into it)"
	}
	if n, ok := strings.CutSuffix(size, "u"); ok {
		return n + " services + " + n + " skills × 2 links, and " + n + " entries + " + n + " skills chronicle does not manage"
	}
	return size + " services + " + size + " skills × 2 links"
}

// A sample is one process's wall time, peak resident memory and lines of
// output.
type sample struct {
	wall   time.Duration
	maxRSS int64 // KiB
	lines  int
	capped bool
}

// linesOf is the median number of lines the runs printed.
func linesOf(ss []sample) string {
	lines := make([]int, len(ss))
	for i, s := range ss {
		lines[i] = s.lines
	}
	slices.Sort(lines)
	return fmt.Sprintf("%d lines of output", lines[len(lines)/2])
}

func run(bin, home string, limit time.Duration, args ...string) (sample, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = filepath.Join(home, "dots")
	cmd.Env = env(home)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var timeout <-chan time.Time
	if limit > 0 {
		timeout = time.After(limit)
	}
	var err error
	select {
	case err = <-done:
	case <-timeout:
		cmd.Process.Signal(syscall.SIGINT)
		<-done
		return sample{wall: limit, capped: true}, fmt.Errorf("stopped after %s", limit)
	}
	s := sample{wall: time.Since(start), lines: bytes.Count(out.Bytes(), []byte("\n"))}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.maxRSS = ru.Maxrss
	}
	if err != nil {
		tail := out.String()
		if len(tail) > 2000 {
			tail = tail[len(tail)-2000:]
		}
		return s, fmt.Errorf("%w\n%s", err, tail)
	}
	return s, nil
}

// env is the environment of every run: HOME is the generated home and no
// variable that points a tool elsewhere is passed through.
func env(home string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "XDG_CONFIG_HOME", "CODEX_HOME", "CHRONICLE_HOME", "CLAUDE_CONFIG_DIR":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "HOME="+home)
}

func summary(ss []sample, capped bool, limit time.Duration) string {
	if capped {
		return fmt.Sprintf("> %s (stopped; %d run)", limit, len(ss))
	}
	walls := make([]time.Duration, len(ss))
	rss := make([]int64, len(ss))
	for i, s := range ss {
		walls[i], rss[i] = s.wall, s.maxRSS
	}
	slices.Sort(walls)
	slices.Sort(rss)
	return fmt.Sprintf("median %7.1f ms  (min %.1f, max %.1f, %d runs)  peak RSS %d MB",
		ms(walls[len(walls)/2]), ms(walls[0]), ms(walls[len(walls)-1]), len(ss), rss[len(rss)/2]/1024)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "planapply:", err)
	os.Exit(1)
}

// generate lays out a fresh home with a configuration in home/dots.
func generate(home, size, fixtures, bin string) error {
	os.RemoveAll(home)
	switch size {
	case "realistic":
		return realistic(home, fixtures, bin)
	case bigClaude, biggerClaude:
		return bigClaudeHome(home, fixtures, historyOf(size))
	}
	number, unmanaged := strings.CutSuffix(size, "u")
	n, err := strconv.Atoi(number)
	if err != nil {
		return fmt.Errorf("size %q: want realistic, a number N or Nu", size)
	}
	if err := synthetic(home, n); err != nil {
		return err
	}
	if unmanaged {
		return theUsersOwn(home, n)
	}
	return nil
}

const realisticLinks = `
link "skills" {
  tools  = ["cursor", "gemini", "opencode"]
  skills = ["*"]
}
link "direct" {
  tools    = ["cursor"]
  services = ["memory"]
}
link "hub" {
  tools = ["gemini", "codex", "claude", "zed", "opencode", "windsurf"]
  hub   = true
}
`

func realistic(home, fixtures, bin string) error {
	mk := exec.Command("bash", filepath.Join(fixtures, "make-home.sh"), home)
	if out, err := mk.CombinedOutput(); err != nil {
		return fmt.Errorf("make-home.sh: %w\n%s", err, out)
	}
	dots := filepath.Join(home, "dots")
	if err := os.MkdirAll(dots, 0o755); err != nil {
		return err
	}
	adopt := exec.Command(bin, "adopt")
	adopt.Dir, adopt.Env = dots, env(home)
	if out, err := adopt.CombinedOutput(); err != nil {
		return fmt.Errorf("adopt: %w\n%s", err, out)
	}
	return os.WriteFile(filepath.Join(dots, "links.hcl"), []byte(realisticLinks), 0o644)
}

// synthetic writes n services (linked straight into Claude Code's
// ~/.claude.json, beside the user's own settings) and n skills of three
// files each (linked into Cursor's and Gemini's skills folders).
func synthetic(home string, n int) error {
	dots := filepath.Join(home, "dots")
	var cfg strings.Builder
	for i := range n {
		fmt.Fprintf(&cfg, "service \"svc-%d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"@example/server-%d\", \"--port\", \"%d\"]\n  env     = { LOG_LEVEL = \"info\" }\n}\n", i, i, 3000+i)
	}
	for i := range n {
		fmt.Fprintf(&cfg, "skill \"skill-%d\" {\n  source = \"./skills/skill-%d\"\n}\n", i, i)
		dir := filepath.Join(dots, "skills", fmt.Sprintf("skill-%d", i))
		if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
			return err
		}
		files := map[string]string{
			"SKILL.md":          fmt.Sprintf("---\nname: skill-%d\ndescription: Generated skill number %d for the benchmark.\n---\n\n# Skill %d\n\n%s", i, i, i, strings.Repeat("Step by step instructions for the agent.\n", 40)),
			"reference.md":      strings.Repeat(fmt.Sprintf("Reference material %d.\n", i), 100),
			"scripts/helper.sh": "#!/bin/sh\necho helper\n",
		}
		for name, body := range files {
			mode := os.FileMode(0o644)
			if strings.HasSuffix(name, ".sh") {
				mode = 0o755
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), mode); err != nil {
				return err
			}
		}
	}
	cfg.WriteString("link \"services\" {\n  tools    = [\"claude\"]\n  services = [")
	for i := range n {
		if i > 0 {
			cfg.WriteString(", ")
		}
		fmt.Fprintf(&cfg, "\"svc-%d\"", i)
	}
	cfg.WriteString(`]
}
link "skills" {
  tools  = ["cursor", "gemini"]
  skills = ["*"]
}
`)
	if err := os.WriteFile(filepath.Join(dots, "chronicle.hcl"), []byte(cfg.String()), 0o644); err != nil {
		return err
	}
	// The user's own Claude Code settings, which apply must keep.
	claude := `{"numStartups": 42, "theme": "dark", "projects": {}, "mcpServers": {"mine": {"command": "my-server"}}}`
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(claude), 0o644); err != nil {
		return err
	}
	for _, d := range []string{".cursor", ".gemini"} {
		if err := os.MkdirAll(filepath.Join(home, d, "skills"), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// theUsersOwn adds, to a synthetic home, n MCP entries and n skills that
// the configuration does not declare: half of each where chronicle writes
// too (Claude Code's ~/.claude.json, Gemini's skills folder), half where it
// writes nothing of that kind (Cursor's mcp.json, Claude Code's skills
// folder). A plan lists them as not managed and changes none of them.
func theUsersOwn(home string, n int) error {
	claudeFile := filepath.Join(home, ".claude.json")
	var claude map[string]any
	b, err := os.ReadFile(claudeFile)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &claude); err != nil {
		return err
	}
	servers := claude["mcpServers"].(map[string]any)
	cursor := map[string]any{}
	for i := range n {
		entry := map[string]any{"command": "uvx", "args": []string{fmt.Sprintf("own-server-%d", i)}, "env": map[string]string{"LEVEL": "debug"}}
		if i%2 == 0 {
			servers[fmt.Sprintf("own-%d", i)] = entry
		} else {
			cursor[fmt.Sprintf("own-%d", i)] = entry
		}
	}
	for file, doc := range map[string]any{claudeFile: claude, filepath.Join(home, ".cursor", "mcp.json"): map[string]any{"mcpServers": cursor}} {
		b, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(file, b, 0o644); err != nil {
			return err
		}
	}
	for i := range n {
		folder := filepath.Join(home, ".claude", "skills")
		if i%2 == 1 {
			folder = filepath.Join(home, ".gemini", "skills")
		}
		dir := filepath.Join(folder, fmt.Sprintf("own-skill-%d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		body := fmt.Sprintf("---\nname: own-skill-%d\ndescription: A skill of the user's own, number %d.\n---\n\n%s", i, i, strings.Repeat("What to do, in the user's words.\n", 20))
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

package main

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
	"github.com/chronicle-dev/chronicle/providers"
)

// buildChronicle builds the real binary once per test run.
var buildOnce struct {
	sync.Once
	path string
	err  error
}

func chronicleBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "chronicle-bin-")
		if err != nil {
			buildOnce.err = err
			return
		}
		buildOnce.path = filepath.Join(dir, "chronicle")
		out, err := exec.Command("go", "build", "-o", buildOnce.path, ".").CombinedOutput()
		if err != nil {
			buildOnce.err = &buildError{out: string(out), err: err}
		}
	})
	if buildOnce.err != nil {
		t.Fatal(buildOnce.err)
	}
	return buildOnce.path
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

const crashLinks = `
link "skills" {
  tools  = ["cursor", "gemini", "opencode"]
  skills = ["*"]
}
link "direct-cursor" {
  tools    = ["cursor"]
  services = ["memory"]
}
link "direct-vscode" {
  tools    = ["vscode"]
  services = ["linear"]
}
link "hub" {
  tools = ["gemini", "codex", "claude", "zed", "opencode", "windsurf"]
  hub   = true
}
`

// crashHome makes a fixture home with an adopted configuration and links,
// and returns the environment to run chronicle in it.
func crashHome(t *testing.T, bin string) (home, dots string, env []string) {
	t.Helper()
	home = filepath.Join(t.TempDir(), "home")
	if out, err := exec.Command("bash", "../../testdata/fixtures/make-home.sh", home).CombinedOutput(); err != nil {
		t.Fatalf("make-home.sh: %v\n%s", err, out)
	}
	dots = filepath.Join(home, "dots")
	env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", "CODEX_HOME=", "CHRONICLE_HOME=", "CLAUDE_CONFIG_DIR=",
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	if err := os.MkdirAll(dots, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, bin, dots, env, 0, "adopt")
	if err := os.WriteFile(filepath.Join(dots, "links.hcl"), []byte(crashLinks), 0o644); err != nil {
		t.Fatal(err)
	}
	return home, dots, env
}

func run(t *testing.T, bin, dir string, env []string, want int, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != want {
		t.Fatalf("chronicle %s exited %d, want %d:\n%s", strings.Join(args, " "), code, want, out)
	}
	return string(out)
}

// checkMachine asserts what must hold after any interruption: the state
// loads, and every tool file parses.
func checkMachine(t *testing.T, home, note string) {
	t.Helper()
	if _, err := state.Load(filepath.Join(home, ".chronicle", "state.json")); err != nil {
		t.Fatalf("%s: the state does not load: %v", note, err)
	}
	env := provider.Env{Home: home, Projects: []string{filepath.Join(home, "work", "api-server")}, Getenv: func(string) (string, bool) { return "", false }}
	view := toolfile.NewView(fsys.OS{})
	for _, p := range providers.All(nil) {
		for _, loc := range p.Locations(env) {
			if _, err := view.Entries(p, loc); err != nil && err != provider.ErrNotConfigured && !strings.Contains(err.Error(), "not configured") {
				t.Fatalf("%s: %s no longer parses: %v", note, loc.File, err)
			}
		}
	}
}

// TestApplySurvivesSIGKILL kills apply at random moments, many times over:
// every file stays either as it was or as intended, the state loads, and a
// second apply converges to a plan with no changes.
func TestApplySurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a real apply many times")
	}
	bin := chronicleBinary(t)
	// Measure one full apply to spread the kills over its length.
	// The shortest of three full applies (the first warms the caches)
	// spreads the kills over an apply's length on this machine.
	var full time.Duration
	for i := range 3 {
		home, dots, env := crashHome(t, bin)
		start := time.Now()
		run(t, bin, dots, env, 0, "apply", "--auto-approve")
		if d := time.Since(start); i == 0 || d < full {
			full = d
		}
		run(t, bin, dots, env, 0, "plan", "--detailed-exitcode")
		checkMachine(t, home, "after a full apply")
	}

	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	const runs = 25
	killed := 0
	for i := 0; i < runs; i++ {
		home, dots, env := crashHome(t, bin)
		claudeSkill, _ := os.ReadFile(filepath.Join(home, ".claude", "skills", "code-review", "SKILL.md"))
		delay := time.Duration(rng.Int64N(int64(full)))
		ctx, cancel := context.WithCancel(context.Background())
		cmd := exec.CommandContext(ctx, bin, "apply", "--auto-approve")
		cmd.Dir, cmd.Env = dots, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		cancel()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			killed++
		}
		note := "run " + strconv.Itoa(i) + " killed after " + delay.String()
		checkMachine(t, home, note)
		if got, _ := os.ReadFile(filepath.Join(home, ".claude", "skills", "code-review", "SKILL.md")); !bytes.Equal(got, claudeSkill) {
			t.Fatalf("%s: a real skill folder chronicle does not manage changed", note)
		}
		run(t, bin, dots, env, 0, "apply", "--auto-approve")
		if got := run(t, bin, dots, env, 0, "plan", "--detailed-exitcode"); !strings.Contains(got, "No changes.") {
			t.Fatalf("%s: not converged:\n%s", note, got)
		}
	}
	t.Logf("one apply took %s; %d of %d runs were killed before they finished", full, killed, runs)
	if killed < runs/4 {
		t.Fatalf("only %d of %d runs were killed mid-way: the test does not exercise interruptions", killed, runs)
	}
}

// TestConcurrentApplies runs two applies at once: one waits for the lock,
// nothing is corrupted, and the machine converges.
func TestConcurrentApplies(t *testing.T) {
	bin := chronicleBinary(t)
	home, dots, env := crashHome(t, bin)
	var wg sync.WaitGroup
	outs := make([]string, 2)
	codes := make([]int, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(bin, "apply", "--auto-approve")
			cmd.Dir, cmd.Env = dots, env
			o, err := cmd.CombinedOutput()
			outs[i] = string(o)
			if ee, ok := err.(*exec.ExitError); ok {
				codes[i] = ee.ExitCode()
			}
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != 0 && !strings.Contains(outs[i], "state is locked by") {
			t.Fatalf("apply %d failed without naming the lock holder:\n%s", i, outs[i])
		}
	}
	if codes[0] != 0 && codes[1] != 0 {
		t.Fatalf("neither apply ran:\n%s\n%s", outs[0], outs[1])
	}
	checkMachine(t, home, "after two concurrent applies")
	// With a timeout the second waits for the first.
	run(t, bin, dots, env, 0, "apply", "--auto-approve", "--lock-timeout", "30s")
	if got := run(t, bin, dots, env, 0, "plan", "--detailed-exitcode"); !strings.Contains(got, "No changes.") {
		t.Fatalf("not converged:\n%s", got)
	}
}

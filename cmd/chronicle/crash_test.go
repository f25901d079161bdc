package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

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
	return crashHomeAt(t, bin, filepath.Join(t.TempDir(), "home"))
}

// crashHomeAt makes the fixture home at home.
func crashHomeAt(t *testing.T, bin, home string) (_, dots string, env []string) {
	t.Helper()
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

// TestApplySurvivesSIGKILL kills apply with SIGKILL right before each of
// many of its writes, state saves included (every kill lands after apply
// started writing, spread evenly over all of them): every file of the home is then byte for byte
// either as it was before or as a full apply leaves it, the state loads, and
// a second apply converges to exactly the full apply's result.
func TestApplySurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a real apply many times")
	}
	bin := chronicleBinary(t)
	root := t.TempDir()
	// Every run uses the same home path, so files that name paths compare
	// byte for byte.
	fresh := func() (home, dots string, env []string) {
		if err := os.RemoveAll(filepath.Join(root, "home")); err != nil {
			t.Fatal(err)
		}
		return crashHomeAt(t, bin, filepath.Join(root, "home"))
	}
	home, dots, env := fresh()
	before := homeFiles(t, home)
	out := run(t, bin, dots, append(env, killAtEnv+"=0"), 0, "apply", "--auto-approve")
	var writes int
	if _, err := fmt.Sscanf(out[strings.LastIndex(out, "writes: "):], "writes: %d", &writes); err != nil || writes < 10 {
		t.Fatalf("could not count apply's writes (%v):\n%s", err, out)
	}
	intended := homeFiles(t, home)
	run(t, bin, dots, env, 0, "plan", "--detailed-exitcode")

	const runs = 25
	for i := range runs {
		at := 1 + i*(writes-1)/(runs-1)
		note := fmt.Sprintf("killed before write %d of %d", at, writes)
		home, dots, env := fresh()
		cmd := exec.Command(bin, "apply", "--auto-approve")
		cmd.Dir, cmd.Env = dots, append(env, fmt.Sprintf("%s=%d", killAtEnv, at))
		var buf bytes.Buffer
		cmd.Stdout, cmd.Stderr = &buf, &buf
		_ = cmd.Run()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			// The state is saved again while changes complete when
			// apply runs long, so a run can make fewer writes than the
			// one counted: then it ends without reaching the kill.
			var made int
			if i := strings.LastIndex(buf.String(), "writes: "); !cmd.ProcessState.Success() || i < 0 {
				t.Fatalf("%s: apply was not killed: %v\n%s", note, cmd.ProcessState, buf.String())
			} else if _, err := fmt.Sscanf(buf.String()[i:], "writes: %d", &made); err != nil || made >= at {
				t.Fatalf("%s: apply made %d writes and was not killed: %v\n%s", note, made, cmd.ProcessState, buf.String())
			}
			t.Logf("%s: this run made only %d writes and finished", note, made)
		}
		checkMachine(t, home, note)
		now := homeFiles(t, home)
		for path, got := range now {
			if was, ok := before[path]; ok && was == got {
				continue
			}
			if want, ok := intended[path]; ok && want == got {
				continue
			}
			t.Fatalf("%s: %s is neither as it was nor as intended:\n%.400s", note, path, got)
		}
		for path := range before {
			if _, ok := now[path]; !ok {
				if _, ok := intended[path]; ok {
					t.Fatalf("%s: %s is gone, and a full apply keeps it", note, path)
				}
			}
		}
		run(t, bin, dots, env, 0, "apply", "--auto-approve")
		if got := run(t, bin, dots, env, 0, "plan", "--detailed-exitcode"); !strings.Contains(got, "No changes.") {
			t.Fatalf("%s: not converged:\n%s", note, got)
		}
		if final := homeFiles(t, home); !maps.Equal(final, intended) {
			for p, v := range intended {
				if final[p] != v {
					t.Fatalf("%s: after the second apply %s differs from a full apply's", note, p)
				}
			}
			t.Fatalf("%s: after the second apply the home holds other files than a full apply's", note)
		}
	}
}

// homeFiles returns every file and symlink of the home but chronicle's own
// folder and the configuration, with its content (a link: its target).
// Temporary files chronicle names .*.chronicle-* and .*.staging-* are left
// out: an interrupted write can leave one beside its target, never in it.
func homeFiles(t *testing.T, home string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(home, p)
		if rel == ".chronicle" || rel == "dots" {
			return filepath.SkipDir
		}
		base := filepath.Base(p)
		if strings.HasPrefix(base, ".") && (strings.Contains(base, ".chronicle-") || strings.Contains(base, ".staging-") || strings.Contains(base, ".swap-")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case d.Type()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "-> " + target
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
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

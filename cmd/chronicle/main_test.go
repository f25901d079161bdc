package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
	"github.com/chronicle-dev/chronicle/engine/lock"
	"github.com/chronicle-dev/chronicle/hub/search/replay"
	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

func TestMain(m *testing.M) {
	// The local HTTPS git servers of the tests are trusted through
	// SSL_CERT_FILE, as a user's own CA would be; set before any TLS use.
	if err := gittest.Trust(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if os.Getenv(xssUpstreamEnv) != "" {
		serveXSSUpstream()
		return
	}
	testscript.Main(m, map[string]func(){
		"chronicle": func() { os.Exit(Main()) },
		// A recorded public MCP server, replayed over stdio (hub/search/replay).
		"replay-upstream": func() {
			if err := replay.Serve(os.Args[1]); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		},
	})
}

// TestScripts runs the txtar scripts in testdata/script. Each script runs
// with HOME inside its own $WORK, so no test ever sees the real home.
func TestScripts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"exitcode": cmdExitCode, "waithttp": cmdWaitHTTP, "holdlock": cmdHoldLock, "releaselock": cmdReleaseLock},
		Condition:           peerCondition,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") == "1",
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			env.Setenv("HOME", home)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			env.Setenv("CODEX_HOME", "")
			env.Setenv("COPILOT_HOME", "")
			env.Setenv("CHRONICLE_HOME", "")
			env.Setenv("NO_COLOR", "1")
			// A tool is present when its program is on PATH: the host's
			// own tools must not be the script's.
			path, err := hermeticPath(env.WorkDir, env.Getenv("PATH"))
			if err != nil {
				return err
			}
			env.Setenv("PATH", path)
			// The folder of the chronicle that scripts run: PATH=$CHRONICLEBIN
			// is a PATH with chronicle and nothing else (no systemctl).
			for _, dir := range filepath.SplitList(path) {
				if _, err := os.Stat(filepath.Join(dir, "chronicle")); err == nil {
					env.Setenv("CHRONICLEBIN", dir)
					break
				}
			}
			// For cmpenv of the machine header (Machine: NAME (os/arch), …).
			env.Setenv("HOSTOS", runtime.GOOS)
			env.Setenv("HOSTARCH", runtime.GOARCH)
			env.Setenv("REPO", root)
			env.Setenv("INSPECTOR", filepath.Join(root, "tools", "npm", "node_modules", ".bin", "mcp-inspector"))
			api := chronovaAPI(filepath.Join(root, "chronova", "testdata", "api"))
			env.Defer(api.Close)
			env.Setenv("CHRONOVA_TEST_URL", api.URL+"/api/v1")
			port, err := freePort()
			if err != nil {
				return err
			}
			env.Setenv("FREEPORT", port)
			return nil
		},
	})
}

// peers are the test peers a script may require with [!peer:NAME] skip:
// the condition is false when the peer is missing, and in CI (CI=true) a
// missing peer fails the script instead (internal/testpeer).
var peers = map[string]string{
	"inspector": ".bin/mcp-inspector",
}

func peerCondition(cond string) (bool, error) {
	name, ok := strings.CutPrefix(cond, "peer:")
	rel, known := peers[name]
	if !ok || !known {
		return false, fmt.Errorf("unknown condition %q (known: peer:inspector)", cond)
	}
	return testpeer.Condition(rel)
}

// cmdExitCode runs a program and checks its exit code:
//
//	exitcode 3 chronicle fmt --check
//
// Its stdout and stderr are kept for the stdout and stderr commands.
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %q is not a number", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}

// heldLocks are the state locks scripts hold (holdlock), by script.
var heldLocks sync.Map // *testscript.TestScript → *lock.Lock

// cmdHoldLock takes the state lock of the script's home, as another
// chronicle would, until releaselock or the end of the script:
//
//	holdlock
//	exitcode 1 chronicle state rm ADDR
//	releaselock
func cmdHoldLock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: holdlock")
	}
	l, err := lock.Acquire(context.Background(), filepath.Join(ts.Getenv("HOME"), ".chronicle", "state.lock"), "holdlock", 0)
	if err != nil {
		ts.Fatalf("holdlock: %v", err)
	}
	heldLocks.Store(ts, l)
	ts.Defer(func() { cmdReleaseLock(ts, false, nil) })
}

// cmdReleaseLock releases the lock holdlock took.
func cmdReleaseLock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: releaselock")
	}
	if l, ok := heldLocks.LoadAndDelete(ts); ok {
		l.(*lock.Lock).Release()
	}
}

// chronovaAPI serves the Chronova fixtures under /api/v1 to callers that
// send the test key, as the real API would.
func chronovaAPI(dir string) *httptest.Server {
	files := map[string]string{
		"/api/v1/users/current":                   "users_current.json",
		"/api/v1/users/current/stats/last_7_days": "users_current_stats_last_7_days.json",
		"/api/v1/users/current/analytics/ai":      "users_current_analytics_ai.json",
		"/api/v1/users/current/heartbeats":        "users_current_heartbeats.json",
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer test-key-from-wakatime-cfg" {
			http.Error(w, `{"error":"Unauthorized"}`, http.StatusUnauthorized)
			return
		}
		name, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		http.ServeFile(w, r, filepath.Join(dir, name))
	}))
}

// freePort returns a loopback port that was free a moment ago.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	_, port, err := net.SplitHostPort(ln.Addr().String())
	return port, err
}

// cmdWaitHTTP waits up to 60 s (a loaded CI machine under the race
// detector) for a URL to answer 200, and with a REGEXP for its body to
// match it:
//
//	waithttp http://127.0.0.1:$FREEPORT/health
//	waithttp http://127.0.0.1:$FREEPORT/api/tools github__get_issue
func cmdWaitHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: waithttp URL [REGEXP]")
	}
	var want *regexp.Regexp
	if len(args) == 2 {
		want = regexp.MustCompile(args[1])
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		req, err := http.NewRequest(http.MethodGet, args[0], nil)
		if err != nil {
			ts.Fatalf("%v", err)
		}
		// As a person's curl would: with the token serve keeps.
		if tok, err := os.ReadFile(filepath.Join(ts.Getenv("HOME"), ".chronicle", "hub.token")); err == nil {
			req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
		}
		if resp, err := http.DefaultClient.Do(req); err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 && (want == nil || want.Match(body)) {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Fatalf("%s did not answer 200 (with a body matching %v) within 60s", args[0], want)
}

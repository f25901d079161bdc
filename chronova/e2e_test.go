//go:build unix

package chronova

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

// These tests drive the bridge with a real MCP client from npm: the MCP
// Inspector CLI, installed by `make npm` (npm install --prefix tools/npm).

// moduleRoot is the directory holding go.mod above the test's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := testpeer.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// inspector returns the Inspector CLI (testpeer: a skip when missing, a
// failure in CI).
func inspector(t *testing.T) string {
	t.Helper()
	return testpeer.NPM(t, ".bin/mcp-inspector")
}

// buildBridge builds cmd/chronova-bridge into a temp dir.
func buildBridge(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "chronova-bridge")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-ldflags", "-X main.version=9.9.9-e2e", "-o", bin, "./chronova/cmd/chronova-bridge")
	cmd.Dir = moduleRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// runInspector runs the Inspector CLI with args in its own process group,
// which it kills, with everything the Inspector started, when the test ends.
func runInspector(t *testing.T, env []string, args ...string) (stdout string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	cmd := exec.CommandContext(ctx, inspector(t), args...)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	t.Cleanup(func() {
		cancel()
		if cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	})
	if err := cmd.Run(); err != nil {
		return out.String(), errors.Join(err, errors.New("stderr: "+errOut.String()))
	}
	return out.String(), nil
}

// inspectorEnv is the test's environment without CHRONOVA_* and HOME, plus vars.
func inspectorEnv(vars ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CHRONOVA_") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, vars...)
}

// decodeListing reads `--method tools/list` output into tool objects.
func decodeListing(t *testing.T, out string) []map[string]any {
	t.Helper()
	var listing struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &listing); err != nil {
		t.Fatalf("tools/list output is not JSON: %v\n%s", err, out)
	}
	return listing.Tools
}

// decodeCall reads `--method tools/call` output into its text and isError.
func decodeCall(t *testing.T, out string) (string, bool) {
	t.Helper()
	var result struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal([]byte(out), &result); err != nil || len(result.Content) != 1 {
		t.Fatalf("tools/call output: %v\n%s", err, out)
	}
	return result.Content[0].Text, result.IsError
}

func TestInspectorOverStdio(t *testing.T) {
	inspector(t)
	api := newFakeAPI(t)
	bridge := buildBridge(t)
	env := inspectorEnv("CHRONOVA_API_URL="+api.apiURL(), "CHRONOVA_API_KEY="+testKey, "HOME="+t.TempDir())

	out, err := runInspector(t, env, "--cli", bridge, "--method", "tools/list")
	if err != nil {
		t.Fatal(err)
	}
	// The wire form must match the public server's list exactly.
	checkToolList(t, decodeListing(t, out))

	out, err = runInspector(t, env, "--cli", bridge, "--method", "tools/call", "--tool-name", ToolDeveloperContext)
	if err != nil {
		t.Fatal(err)
	}
	text, isErr := decodeCall(t, out)
	var got any
	if err := json.Unmarshal([]byte(text), &got); isErr || err != nil {
		t.Fatalf("isError=%v, %v: %s", isErr, err, text)
	}
	if want := fixtureMember(t, "users_current.json", "data"); !jsonEqual(got, want) {
		t.Errorf("get_developer_context = %s, want the fixture's data member", text)
	}
	if r := api.last(t); r.Header.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("Authorization = %q", r.Header.Get("Authorization"))
	}

	// The Inspector sends every --tool-arg as a string.
	out, err = runInspector(t, env, "--cli", bridge, "--method", "tools/call",
		"--tool-name", ToolRecentActivity, "--tool-arg", "per_page=500")
	if err != nil {
		t.Fatal(err)
	}
	if text, isErr := decodeCall(t, out); !isErr || text != "Invalid arguments: invalid per_page 500: must be between 1 and 100." {
		t.Errorf("per_page=500: isError=%v text=%q", isErr, text)
	}
}

func TestBridgeBinaryWithoutKeyExits1(t *testing.T) {
	bridge := buildBridge(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bridge)
	cmd.Env = inspectorEnv("HOME=" + t.TempDir())
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("err = %v, want exit status 1", err)
	}
	if !strings.Contains(string(out), "CHRONOVA_API_KEY") || !strings.Contains(string(out), "~/.wakatime.cfg") {
		t.Errorf("output = %q, want the places a key can come from", out)
	}
}

func TestInspectorOverHTTP(t *testing.T) {
	inspector(t)
	api := newFakeAPI(t)
	base := serveHTTP(t, testOptions(t, map[string]string{"CHRONOVA_API_KEY": testKey, "CHRONOVA_API_URL": api.apiURL()}, os.Stderr))
	env := inspectorEnv("HOME=" + t.TempDir())

	out, err := runInspector(t, env, "--cli", base+"/mcp", "--method", "tools/list")
	if err != nil {
		t.Fatal(err)
	}
	checkToolList(t, decodeListing(t, out))

	out, err = runInspector(t, env, "--cli", base+"/mcp", "--method", "tools/call",
		"--tool-name", ToolProductivitySummary, "--tool-arg", "range=last_7_days")
	if err != nil {
		t.Fatal(err)
	}
	text, isErr := decodeCall(t, out)
	var got any
	if err := json.Unmarshal([]byte(text), &got); isErr || err != nil {
		t.Fatalf("isError=%v, %v: %s", isErr, err, text)
	}
	if want := fixtureMember(t, "users_current_stats_last_7_days.json", "data"); !jsonEqual(got, want) {
		t.Errorf("get_productivity_summary differs from the fixture's data member")
	}
}

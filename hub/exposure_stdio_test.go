package hub

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// stdioProfileEnv gives the test binary serving stdio its --profile.
const stdioProfileEnv = "CHRONICLE_HUB_TEST_PROFILE"

// connectStdio starts this test binary as chronicle serve --stdio [--profile
// NAME] for the state, working in dir, and connects an mcp-go client that
// speaks version.
func connectStdio(t *testing.T, statePath, profile, dir, version string) *client.Client {
	t.Helper()
	return connectStdioWith(t, statePath, dir, version, stdioProfileEnv+"="+profile)
}

// connectStdioWith is connectStdio with the serve --stdio option the test
// binary reads from env (stdioProfileEnv, stdioServiceEnv).
func connectStdioWith(t *testing.T, statePath, dir, version, env string) *client.Client {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tr := transport.NewStdioWithOptions(exe, nil, []string{"-test.run=^$"}, transport.WithCommandFunc(
		func(ctx context.Context, command string, _ []string, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), stdioStateEnv+"="+statePath, env)
			return cmd, nil
		}))
	if err := tr.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(version))
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = version
	init.Params.ClientInfo = mcp.Implementation{Name: "stdio-test", Version: "1"}
	if _, err := c.Initialize(bounded(t), init); err != nil {
		t.Fatalf("initialize over stdio (%s): %v", version, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestSearchModeAndProfilesOverStdio: serve --stdio lists the meta-tools in
// search mode and serve --stdio --profile NAME the profile's tools, scoped
// by the working directory, on a current and an older revision.
func TestSearchModeAndProfilesOverStdio(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	project := filepath.Join(dir, "work", "api")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	writeState(t, path, []service.Service{testService("alpha", "alpha", ""), testService("beta", "beta", project)},
		map[string]state.Policy{"alpha": {DisabledTools: []string{"delete_*"}}})
	setExposure(t, path, state.Hub{Tools: "search"}, map[string]state.Profile{"echoes": {Tools: []string{"*__echo"}, Exposure: "all"}})

	for _, version := range []string{"2025-11-25", "2025-03-26"} {
		c := connectStdio(t, path, "", project, version)
		if got := strings.Join(listed(t, c), " "); got != strings.Join(metaNames, " ") {
			t.Errorf("%s: stdio in search mode lists %s", version, got)
		}
		res := callTool(t, c, "search_tools", map[string]any{"query": "echo text", "limit": 50})
		if (res.StructuredContent != nil) != (version == "2025-11-25") {
			t.Errorf("%s: structured content %v", version, res.StructuredContent)
		}
		names := found(t, res)
		if !contains(names, "beta__echo") || contains(names, "alpha__delete_everything") {
			t.Errorf("%s: search in the project over stdio: %v", version, names)
		}
		if got := callTool(t, c, "call_tool", map[string]any{"name": "beta__echo", "arguments": map[string]any{"text": version}}); resultText(got) != "beta:"+version {
			t.Errorf("%s: call_tool over stdio: %s", version, resultText(got))
		}
		if got := callTool(t, c, "alpha__echo", map[string]any{"text": "direct"}); resultText(got) != "alpha:direct" {
			t.Errorf("%s: direct call over stdio in search mode: %s", version, resultText(got))
		}
		if d := callTool(t, c, "describe_tools", map[string]any{"names": []string{"alpha__delete_everything"}}); !d.IsError {
			t.Errorf("%s: describe_tools described a disabled tool", version)
		}
	}

	p := connectStdio(t, path, "echoes", project, "2025-11-25")
	if got := strings.Join(listed(t, p), " "); got != "alpha__echo beta__echo" {
		t.Errorf("serve --stdio --profile echoes in the project lists %s", got)
	}
	var req mcp.CallToolRequest
	req.Params.Name = "alpha__schedule"
	if res, err := p.CallTool(bounded(t), req); err == nil && !res.IsError {
		t.Errorf("a tool outside the profile was called over stdio: %s", resultText(res))
	}
	if got := strings.Join(listed(t, connectStdio(t, path, "echoes", dir, "2025-11-25")), " "); got != "alpha__echo" {
		t.Errorf("serve --stdio --profile echoes outside the project lists %s", got)
	}
}

// TestStdioUnknownProfile: serve --stdio --profile with a profile the state
// does not define refuses to start, naming the ones it does.
func TestStdioUnknownProfile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	setExposure(t, path, state.Hub{}, map[string]state.Profile{"review": {}})
	_, err := New(Options{StatePath: path, Home: dir, Profile: "reveiw"})
	if err == nil || !strings.Contains(err.Error(), `no profile named "reveiw"`) || !strings.Contains(err.Error(), "its profiles: review") {
		t.Errorf("an unknown profile: %v", err)
	}
}

package hub

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// profileState is a state of four services, one of which cannot start
// (its env needs FAKE_TOKEN, which is not set), and a profile "pair" of
// two of them, the one that cannot start among them.
func profileState(t *testing.T) string {
	t.Helper()
	// FAKE_TOKEN is unset for the test, whatever the environment holds
	// (t.Setenv restores it afterwards).
	t.Setenv("FAKE_TOKEN", "")
	os.Unsetenv("FAKE_TOKEN")
	path := filepath.Join(t.TempDir(), "state.json")
	broken := testService("broken", "broken", "")
	broken.Env["GITHUB_TOKEN"] = secretEnv("FAKE_TOKEN")
	writeState(t, path, []service.Service{
		testService("alpha", "alpha", ""), testService("beta", "beta", ""), testService("gamma", "gamma", ""), broken,
	}, nil)
	setExposure(t, path, state.Hub{}, map[string]state.Profile{"pair": {Services: []string{"alpha", "broken"}}})
	return path
}

// serve --stdio --profile P starts only the services P serves.
func TestProfileHubStartsOnlyItsServices(t *testing.T) {
	path := profileState(t)
	h, err := New(Options{StatePath: path, Home: t.TempDir(), Version: "test", ListGrace: testGrace, Profile: "pair",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Getenv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	h.lister.Catalog(bounded(t))
	var names, running []string
	for _, s := range h.pool.Status() {
		names = append(names, s.Name)
		if s.PID != 0 {
			running = append(running, s.Name)
		}
	}
	if !slices.Equal(names, []string{"alpha", "broken"}) {
		t.Errorf("a hub serving profile pair holds upstreams %v, want alpha and broken", names)
	}
	if !slices.Equal(running, []string{"alpha"}) {
		t.Errorf("running: %v, want alpha only", running)
	}
}

// A tool of a service that could not start answers with the reason, as a
// tool error, over stdio; a tool of a service the profile does not serve
// is still unknown.
func TestUnstartableServiceToolAnswersWhy(t *testing.T) {
	path := profileState(t)
	c := connectStdio(t, path, "pair", t.TempDir(), "2025-11-25")
	if got := strings.Join(listed(t, c), " "); strings.Contains(got, "broken__") || !strings.Contains(got, "alpha__echo") {
		t.Fatalf("the profile lists %s", got)
	}
	res := callTool(t, c, "broken__echo", map[string]any{"text": "hi"})
	if text := resultText(res); !res.IsError || !strings.Contains(text, "FAKE_TOKEN") || !strings.Contains(text, "The service broken could not start") {
		t.Errorf("a tool of a service that could not start answers %q (error %v)", text, res.IsError)
	}
	// Still never listed, and the others still work.
	if got := strings.Join(listed(t, c), " "); strings.Contains(got, "broken__") {
		t.Errorf("after the call the profile lists %s", got)
	}
	if got := resultText(callTool(t, c, "alpha__echo", map[string]any{"text": "ok"})); got != "alpha:ok" {
		t.Errorf("alpha__echo: %q", got)
	}
	var req mcp.CallToolRequest
	req.Params.Name = "gamma__echo"
	if _, err := c.CallTool(bounded(t), req); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("a tool outside the profile: %v", err)
	}
}

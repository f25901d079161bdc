package hub

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/search/replay"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// replayServices returns one stdio service per recorded public server in
// hub/search/testdata/catalogue, each replayed by this test binary.
func replayServices(t *testing.T) []service.Service {
	t.Helper()
	recs, err := replay.LoadDir("search/testdata/catalogue")
	if err != nil {
		t.Fatal(err)
	}
	var out []service.Service
	for _, r := range recs {
		abs, _ := filepath.Abs(filepath.Join("search/testdata/catalogue", r.Service+".json"))
		s := testService(r.Service, "replay:"+abs, "")
		out = append(out, s)
	}
	return out
}

// goSearch calls search_tools through a Go SDK session and returns the
// names found, from the structured content (nil when there is none) or
// the text.
func goSearch(t *testing.T, cs *gosdk.ClientSession, query string) (names []string, structured bool) {
	t.Helper()
	res, err := cs.CallTool(bounded(t), &gosdk.CallToolParams{Name: "search_tools", Arguments: map[string]any{"query": query, "limit": 10}})
	if err != nil || res.IsError {
		t.Fatalf("search_tools %q: %v %s", query, err, goText(res))
	}
	raw := []byte(goText(res))
	if res.StructuredContent != nil {
		raw, _ = json.Marshal(res.StructuredContent)
	}
	names = foundIn(t, raw)
	return names, res.StructuredContent != nil
}

// TestSearchModeWithRealUpstreams puts the 463 recorded tools of 19 public
// servers (replayed) and a live server-everything (in a project) behind a
// hub in search mode, and drives it with the official Go SDK over HTTP and
// stdio, on 2025-11-25 and 2025-03-26: search finds tools by need, never a
// disabled or out-of-scope one; call_tool validates and calls through the
// one call path, with progress and elicitation passed through; the
// catalogue's full cost and the search surface's are reported.
func TestSearchModeWithRealUpstreams(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	project := filepath.Join(dir, "work", "api")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	live := everythingService(t)
	live.Name, live.Project = "live", project
	writeState(t, path, append(replayServices(t), live), map[string]state.Policy{
		"github": {DisabledTools: []string{"create_pull_request"}},
	})
	setExposure(t, path, state.Hub{Tools: "search"}, nil)
	r := startHub(t, path)

	hubCS := goSDKSession(t, r.url+"/mcp", "2025-11-25", nil)
	tools, err := hubCS.ListTools(bounded(t), nil)
	if err != nil || len(tools.Tools) != 3 {
		t.Fatalf("search mode lists %d tools (%v)", len(tools.Tools), err)
	}
	names, structured := goSearch(t, hubCS, "open a pull request")
	if !structured || contains(names, "github__create_pull_request") || !contains(names, "github__list_pull_requests") {
		t.Errorf("search for a pull request (github's create_pull_request is disabled): %v", names)
	}
	if names, _ := goSearch(t, hubCS, "take a screenshot of the web page"); len(names) == 0 || !strings.Contains(strings.Join(names[:min(5, len(names))], " "), "screenshot") {
		t.Errorf("search for a screenshot: %v", names)
	}
	if names, _ := goSearch(t, hubCS, "echo a message back"); contains(names, "live__echo") {
		t.Errorf("search outside the project found the project's service: %v", names)
	}
	res, err := hubCS.CallTool(bounded(t), &gosdk.CallToolParams{Name: "call_tool", Arguments: map[string]any{
		"name": "github__get_issue", "arguments": map[string]any{"owner": "o", "repo": "r", "issue_number": 7},
	}})
	if err != nil || goText(res) != `replayed get_issue with {"issue_number":7,"owner":"o","repo":"r"}` {
		t.Errorf("call_tool github__get_issue: %v %s", err, goText(res))
	}
	res, err = hubCS.CallTool(bounded(t), &gosdk.CallToolParams{Name: "call_tool", Arguments: map[string]any{
		"name": "github__get_issue", "arguments": map[string]any{"owner": "o", "issue_number": "seven"},
	}})
	if err != nil || !res.IsError || !strings.Contains(goText(res), "missing property 'repo'") || !strings.Contains(goText(res), `"issue_number":{"type":"number"}`) {
		t.Errorf("call_tool with bad arguments: %v %s", err, goText(res))
	}

	// The figure: the whole catalogue listed in full against the search
	// surface.
	ep := endpointOfStatus(t, r.url, "/mcp", "")
	t.Logf("%d tools: %d tokens listed in full; search mode lists %d tools, %d tokens", ep.Tools, ep.CatalogTokens, ep.Listed, ep.ListedTokens)
	if ep.Tools < 450 || ep.CatalogTokens < 100_000 || ep.Listed != 3 || ep.ListedTokens > 1000 {
		t.Errorf("/mcp status: %+v", ep)
	}

	// In the project: server-everything is found, and call_tool passes
	// progress and elicitation through like a direct call.
	var mu sync.Mutex
	progress := 0
	elicited := make(chan string, 1)
	projCS := goSDKSession(t, r.url+"/mcp?root="+url.QueryEscape(project), "2025-11-25", &gosdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *gosdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			progress++
		},
		ElicitationHandler: func(_ context.Context, req *gosdk.ElicitRequest) (*gosdk.ElicitResult, error) {
			elicited <- req.Params.Message
			return &gosdk.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
	})
	if names, _ := goSearch(t, projCS, "echo a message back"); len(names) < 2 || !contains(names[:2], "live__echo") {
		t.Errorf("search in the project: %v", names)
	}
	params := &gosdk.CallToolParams{Name: "call_tool", Arguments: map[string]any{
		"name": "live__trigger-long-running-operation", "arguments": map[string]any{"duration": 0.3, "steps": 3},
	}}
	params.SetProgressToken("through-call-tool")
	res, err = projCS.CallTool(bounded(t), params)
	if err != nil || !strings.Contains(goText(res), "completed") {
		t.Errorf("call_tool of a long-running operation: %v %s", err, goText(res))
	}
	res, err = projCS.CallTool(bounded(t), &gosdk.CallToolParams{Name: "call_tool", Arguments: map[string]any{
		"name": "live__trigger-elicitation-request", "arguments": map[string]any{},
	}})
	if err != nil || !strings.Contains(goText(res), "Name: Ada") {
		t.Errorf("call_tool with an elicitation: %v %s", err, goText(res))
	}
	if msg := waitfor.Receive(t, elicited, "the elicitation to reach the client"); !strings.Contains(msg, "provide inputs") {
		t.Errorf("the elicitation asked %q", msg)
	}

	// An older revision: text alone.
	old := goSDKSession(t, r.url+"/mcp?root="+url.QueryEscape(project), "2025-03-26", nil)
	if names, structured := goSearch(t, old, "echo a message back"); structured || len(names) < 2 || !contains(names[:2], "live__echo") {
		t.Errorf("search on 2025-03-26: structured %v, %v", structured, names)
	}

	// serve --stdio in the project, through the same SDK.
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Dir = project
	cmd.Env = append(os.Environ(), stdioStateEnv+"="+path)
	c := gosdk.NewClient(&gosdk.Implementation{Name: "go-sdk-test", Version: "1"}, nil)
	stdio, err := c.Connect(context.Background(), &gosdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stdio.Close()
	if names, structured := goSearch(t, stdio, "open a pull request"); !structured || contains(names, "github__create_pull_request") || !contains(names, "github__list_pull_requests") {
		t.Errorf("search over stdio: %v", names)
	}
	res, err = stdio.CallTool(bounded(t), &gosdk.CallToolParams{Name: "call_tool", Arguments: map[string]any{
		"name": "live__echo", "arguments": map[string]any{"message": "over stdio"},
	}})
	if err != nil || goText(res) != "Echo: over stdio" {
		t.Errorf("call_tool over stdio: %v %s", err, goText(res))
	}
	res, err = stdio.CallTool(bounded(t), &gosdk.CallToolParams{Name: "describe_tools", Arguments: map[string]any{"names": []string{"live__echo", "slack__slack_post_message"}}})
	if err != nil || res.IsError || !strings.Contains(goText(res), `"name":"slack__slack_post_message"`) {
		t.Errorf("describe_tools over stdio: %v %s", err, goText(res))
	}
	mu.Lock()
	defer mu.Unlock()
	if progress < 1 {
		t.Error("no progress came back through call_tool")
	}
}

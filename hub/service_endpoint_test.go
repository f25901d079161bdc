package hub

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// stdioServiceEnv gives the test binary serving stdio its --service.
const stdioServiceEnv = "CHRONICLE_HUB_TEST_SERVICE"

// TestServiceEndpoint: /mcp/service/NAME (and serve --stdio --service NAME)
// lists one service's tools and prompts under the names its server gives,
// calls and gets them by those names, keeps the policy (a disabled tool is
// neither listed nor run) and the scope (a project's service only under
// its folder), on a session revision and on 2026-07-28; an unknown service
// is 404.
func TestServiceEndpoint(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	project := filepath.Join(dir, "work", "api")
	writeState(t, path, []service.Service{testService("alpha", "alpha", ""), testService("beta", "beta", project)},
		map[string]state.Policy{"alpha": {DisabledTools: []string{"delete_*"}}})
	r := startHub(t, path)

	want := []string{"echo", "schedule", LongToolName}
	slices.Sort(want)
	for _, version := range []string{"2025-11-25", ""} {
		c := connectAt(t, r.url+"/mcp/service/alpha", version)
		if got := listed(t, c); !slices.Equal(got, want) {
			t.Errorf("/mcp/service/alpha (%q) lists %v, want %v", version, got, want)
		}
		if got := callTool(t, c, "echo", map[string]any{"text": "p"}); resultText(got) != "alpha:p" {
			t.Errorf("echo by its own name (%q): %s", version, resultText(got))
		}
		if got := callTool(t, c, LongToolName, nil); resultText(got) != "long" {
			t.Errorf("a tool whose hub name is shortened, by its own name (%q): %s", version, resultText(got))
		}
		if got := callTool(t, c, "delete_everything", nil); !strings.Contains(resultText(got), "disabled by a chronicle policy") {
			t.Errorf("a disabled tool by its own name (%q): %s", version, resultText(got))
		}
		var req mcp.CallToolRequest
		req.Params.Name = "alpha__echo"
		if res, err := c.CallTool(bounded(t), req); err == nil && !res.IsError {
			t.Errorf("the hub's own name of a tool answered on the service endpoint (%q): %s", version, resultText(res))
		}
		prompts, err := c.ListPrompts(bounded(t), mcp.ListPromptsRequest{})
		if err != nil || len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "greet" || prompts.Prompts[0].Description != "Greets." {
			t.Fatalf("prompts of /mcp/service/alpha (%q): %+v, %v", version, prompts, err)
		}
		var get mcp.GetPromptRequest
		get.Params.Name = "greet"
		got, err := c.GetPrompt(bounded(t), get)
		if err != nil || len(got.Messages) != 1 || got.Messages[0].Content.(mcp.TextContent).Text != "hello from alpha" {
			t.Errorf("prompts/get greet (%q): %+v, %v", version, got, err)
		}
	}

	// beta belongs to a project: offered only to a client working in it.
	if got := listed(t, connectAt(t, r.url+"/mcp/service/beta", "2025-11-25")); len(got) != 0 {
		t.Errorf("/mcp/service/beta outside its project lists %v", got)
	}
	scoped := connectAt(t, r.url+"/mcp/service/beta?root="+url.QueryEscape(project), "2025-11-25")
	if got := listed(t, scoped); !slices.Equal(got, slices.Sorted(slices.Values([]string{LongToolName, "delete_everything", "echo", "schedule"}))) {
		t.Errorf("/mcp/service/beta in its project lists %v", got)
	}
	if got := callTool(t, scoped, "echo", map[string]any{"text": "q"}); resultText(got) != "beta:q" {
		t.Errorf("/mcp/service/beta in its project: %s", resultText(got))
	}

	resp, err := testHTTP.Post(r.url+"/mcp/service/nope", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "alpha, beta") {
		t.Errorf("an unknown service: %d %s", resp.StatusCode, body)
	}

	// Over stdio, by --service.
	c := connectStdioWith(t, path, dir, "2025-11-25", stdioServiceEnv+"=alpha")
	if got := listed(t, c); !slices.Equal(got, want) {
		t.Errorf("serve --stdio --service alpha lists %v, want %v", got, want)
	}
	if got := callTool(t, c, "echo", map[string]any{"text": "s"}); resultText(got) != "alpha:s" {
		t.Errorf("echo over stdio by its own name: %s", resultText(got))
	}
}

// TestUnsupportedVersionError: a request naming a revision the hub does not
// speak gets UnsupportedProtocolVersion (-32022) with its own id and, in
// data, the supported revisions and the requested one (2026-07-28's
// layout); a GET, which has no id, gets the same error with id null.
func TestUnsupportedVersionError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	r := startHub(t, path)
	for _, tc := range []struct {
		method, body, wantID string
	}{
		{http.MethodPost, `{"jsonrpc":"2.0","id":301,"method":"server/discover","params":{}}`, "301"},
		{http.MethodPost, `{"jsonrpc":"2.0","id":"a-7","method":"tools/list"}`, `"a-7"`},
		{http.MethodGet, "", "null"},
	} {
		req, _ := http.NewRequest(tc.method, r.url+"/mcp/service/alpha", strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "v999.0.0")
		resp, err := testHTTP.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			ID    json.RawMessage `json:"id"`
			Error struct {
				Code int `json:"code"`
				Data struct {
					Supported []string `json:"supported"`
					Requested string   `json:"requested"`
				} `json:"data"`
			} `json:"error"`
		}
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusBadRequest || string(got.ID) != tc.wantID ||
			got.Error.Code != mcp.UNSUPPORTED_PROTOCOL_VERSION || !slices.Equal(got.Error.Data.Supported, wire.SupportedVersions) ||
			got.Error.Data.Requested != "v999.0.0" {
			t.Errorf("%s %s: %d %+v (id %s), %v", tc.method, tc.body, resp.StatusCode, got, got.ID, err)
		}
	}
}

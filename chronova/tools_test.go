package chronova

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// pinnedProtocol keeps mcp-go clients off the stateless 2026-07-28 probe,
// which costs about a second against servers that predate it.
const pinnedProtocol = "2025-11-25"

// connect starts an in-process MCP client on a bridge served by c.
func connect(t *testing.T, c *Client) *client.Client {
	t.Helper()
	mc, err := client.NewInProcessClientWithOptions(NewServer(c, "test"), client.WithProtocolVersion(pinnedProtocol))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := mc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mc.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = pinnedProtocol
	init.Params.ClientInfo = mcp.Implementation{Name: "chronova-test", Version: "0"}
	res, err := mc.Initialize(ctx, init)
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Name != ServerName || res.ServerInfo.Version != "test" {
		t.Errorf("server info = %+v", res.ServerInfo)
	}
	return mc
}

// callTool calls a tool and returns its text and whether it is an error.
func callTool(t *testing.T, mc *client.Client, name string, arguments map[string]any) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = arguments
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := mc.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s: protocol error %v; want a tool result", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content items, want 1", name, len(res.Content))
	}
	text, ok := mcp.AsTextContent(res.Content[0])
	if !ok {
		t.Fatalf("%s: content is %T, want text", name, res.Content[0])
	}
	return text.Text, res.IsError
}

// fixtureTools are the tools of testdata/mcp_tools_list.json, as JSON values.
func fixtureTools(t *testing.T) map[string]map[string]any {
	t.Helper()
	var doc struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(readFixture(t, "mcp_tools_list.json"), &doc); err != nil {
		t.Fatal(err)
	}
	tools := map[string]map[string]any{}
	for _, tool := range doc.Tools {
		tools[tool["name"].(string)] = tool
	}
	return tools
}

func toJSONValue(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkToolList compares a tools/list answer with the public server's list.
func checkToolList(t *testing.T, got []map[string]any) {
	t.Helper()
	want := fixtureTools(t)
	if len(got) != len(want) {
		t.Errorf("%d tools, want %d", len(got), len(want))
	}
	for _, tool := range got {
		name, _ := tool["name"].(string)
		w, ok := want[name]
		if !ok {
			t.Errorf("unexpected tool %q", name)
			continue
		}
		for _, field := range []string{"description", "inputSchema", "annotations"} {
			if !reflect.DeepEqual(tool[field], w[field]) {
				t.Errorf("%s %s = %v\nwant %v", name, field, tool[field], w[field])
			}
		}
	}
}

func TestToolsListMatchesPublicServer(t *testing.T) {
	mc := connect(t, newTestClient(t, newFakeAPI(t).apiURL()))
	res, err := mc.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	// The client decodes schemas into mcp-go's typed form; comparing the
	// re-encoded JSON still covers every key the fixture has, once the empty
	// "required" list that re-encoding adds is taken away.
	var got []map[string]any
	for _, tool := range res.Tools {
		m := toJSONValue(t, tool).(map[string]any)
		schema := m["inputSchema"].(map[string]any)
		if req, ok := schema["required"].([]any); ok && len(req) == 0 {
			delete(schema, "required")
		}
		got = append(got, m)
	}
	checkToolList(t, got)
	// The raw schema the server sends keeps anyOf and exclusiveMinimum.
	raw := toJSONValue(t, Tools())
	var rawTools []map[string]any
	for _, v := range raw.([]any) {
		rawTools = append(rawTools, v.(map[string]any))
	}
	checkToolList(t, rawTools)
}

func TestToolsReturnFixtures(t *testing.T) {
	api := newFakeAPI(t)
	mc := connect(t, newTestClient(t, api.apiURL()))
	tests := []struct {
		tool      string
		arguments map[string]any
		fixture   string
		member    string
		path      string
		query     string
	}{
		{ToolDeveloperContext, nil, "users_current.json", "data", "/api/v1/users/current", ""},
		{ToolProductivitySummary, map[string]any{"range": "last_7_days"}, "users_current_stats_last_7_days.json", "data",
			"/api/v1/users/current/stats/last_7_days", ""},
		{ToolProductivitySummary, map[string]any{"range": "last_7_days", "project": "api-server"}, "users_current_stats_last_7_days.json", "data",
			"/api/v1/users/current/stats/last_7_days", "project=api-server"},
		{ToolAIInsights, map[string]any{"range": "last_7_days"}, "users_current_analytics_ai.json", "data",
			"/api/v1/users/current/analytics/ai", "range=last_7_days"},
		{ToolAIInsights, map[string]any{"range": "2026-07-27_to_2026-08-02"}, "users_current_analytics_ai.json", "data",
			"/api/v1/users/current/analytics/ai", "range=2026-07-27_to_2026-08-02"},
		{ToolRecentActivity, nil, "users_current_heartbeats.json", "", "/api/v1/users/current/heartbeats", ""},
		{ToolRecentActivity, map[string]any{"date": "2026-08-03", "project": "", "language": "TypeScript", "page": 2, "per_page": "100"},
			"users_current_heartbeats.json", "", "/api/v1/users/current/heartbeats", "date=2026-08-03&language=TypeScript&page=2&per_page=100"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.query, func(t *testing.T) {
			text, isErr := callTool(t, mc, tt.tool, tt.arguments)
			if isErr {
				t.Fatalf("isError: %s", text)
			}
			var got any
			if err := json.Unmarshal([]byte(text), &got); err != nil {
				t.Fatalf("result is not JSON: %v\n%s", err, text)
			}
			if want := fixtureMember(t, tt.fixture, tt.member); !reflect.DeepEqual(got, want) {
				t.Errorf("result = %v\nwant %v", got, want)
			}
			if !strings.HasPrefix(text, "{\n  \"") {
				t.Errorf("result is not pretty JSON: %.40q", text)
			}
			r := api.last(t)
			if r.URL.Path != tt.path || r.URL.RawQuery != tt.query {
				t.Errorf("request = %s?%s, want %s?%s", r.URL.Path, r.URL.RawQuery, tt.path, tt.query)
			}
			if r.Header.Get("Authorization") != "Bearer "+testKey || r.Header.Get("Accept") != "application/json" {
				t.Errorf("headers = %v", r.Header)
			}
		})
	}
}

func TestToolsReportAPIErrors(t *testing.T) {
	for _, tc := range loadErrorCases(t) {
		if tc.Status == 0 {
			continue // network failures are covered below and in client_test.go
		}
		t.Run(tc.Code+" "+tc.StatusText, func(t *testing.T) {
			mc := connect(t, newTestClient(t, statusServer(t, tc).URL))
			text, isErr := callTool(t, mc, ToolDeveloperContext, nil)
			if !isErr || text != tc.Text {
				t.Errorf("isError=%v text=%q\nwant isError=true text=%q", isErr, text, tc.Text)
			}
		})
	}
	t.Run("connection refused", func(t *testing.T) {
		base := refusedURL(t)
		mc := connect(t, newTestClient(t, base))
		text, isErr := callTool(t, mc, ToolRecentActivity, map[string]any{"per_page": 5})
		want := "Cannot connect to Chronova at " + base + "/users/current/heartbeats?per_page=5. Check CHRONOVA_API_URL configuration."
		if !isErr || text != want {
			t.Errorf("isError=%v text=%q\nwant %q", isErr, text, want)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		srv := hangingServer(t)
		c := newTestClient(t, srv.URL)
		c.Timeout = 100 * time.Millisecond
		text, isErr := callTool(t, connect(t, c), ToolAIInsights, map[string]any{"range": "today"})
		want := "Timed out after 100ms waiting for Chronova at " + srv.URL + "/users/current/analytics/ai?range=today."
		if !isErr || text != want {
			t.Errorf("isError=%v text=%q\nwant %q", isErr, text, want)
		}
	})
	t.Run("no key", func(t *testing.T) {
		c, err := NewClient(Credentials{URL: DefaultURL, URLSource: SourceDefault})
		if err != nil {
			t.Fatal(err)
		}
		text, isErr := callTool(t, connect(t, c), ToolDeveloperContext, nil)
		if !isErr || text != noKeyMessage {
			t.Errorf("isError=%v text=%q", isErr, text)
		}
	})
}

func TestToolsRejectBadInput(t *testing.T) {
	api := newFakeAPI(t)
	mc := connect(t, newTestClient(t, api.apiURL()))
	tests := []struct {
		tool      string
		arguments map[string]any
		want      string
	}{
		{ToolProductivitySummary, nil, "Invalid arguments: missing required argument range."},
		{ToolProductivitySummary, map[string]any{"range": "last_week"},
			`Invalid arguments: invalid range "last_week": expected one of today, last_7_days, last_30_days, last_3_months, last_6_months, last_year, all_time.`},
		{ToolProductivitySummary, map[string]any{"range": "today", "project": 7}, "Invalid arguments: invalid project: expected a string, got a number."},
		{ToolAIInsights, map[string]any{"range": "yesterday"},
			`Invalid arguments: invalid range "yesterday": expected one of today, last_7_days, last_30_days, last_3_months, last_6_months, last_year, all_time, or YYYY-MM-DD_to_YYYY-MM-DD.`},
		{ToolAIInsights, map[string]any{"range": "2026-02-30_to_2026-03-01"},
			`Invalid arguments: invalid range "2026-02-30_to_2026-03-01": 2026-02-30 is not a calendar date.`},
		{ToolAIInsights, map[string]any{"range": "2026-08-02_to_2026-07-27"},
			`Invalid arguments: invalid range "2026-08-02_to_2026-07-27": the start date is after the end date.`},
		{ToolRecentActivity, map[string]any{"date": "03/08/2026"}, `Invalid arguments: invalid date "03/08/2026": expected a date as YYYY-MM-DD.`},
		{ToolRecentActivity, map[string]any{"start": "2026-13-01"}, `Invalid arguments: invalid start "2026-13-01": 2026-13-01 is not a calendar date.`},
		{ToolRecentActivity, map[string]any{"start": "2026-08-03", "end": "2026-08-01"}, "Invalid arguments: invalid start 2026-08-03: it is after end 2026-08-01."},
		{ToolRecentActivity, map[string]any{"per_page": 101}, "Invalid arguments: invalid per_page 101: must be between 1 and 100."},
		{ToolRecentActivity, map[string]any{"per_page": 0}, "Invalid arguments: invalid per_page 0: must be between 1 and 100."},
		{ToolRecentActivity, map[string]any{"per_page": -3}, "Invalid arguments: invalid per_page -3: must be between 1 and 100."},
		{ToolRecentActivity, map[string]any{"per_page": 2.5}, "Invalid arguments: invalid per_page: expected an integer, got 2.5."},
		{ToolRecentActivity, map[string]any{"page": "two"}, `Invalid arguments: invalid page: expected an integer, got "two".`},
		{ToolRecentActivity, map[string]any{"page": 0}, "Invalid arguments: invalid page 0: must be between 1 and 2147483647."},
		{ToolRecentActivity, map[string]any{"editor": []any{"vim"}}, "Invalid arguments: invalid editor: expected a string, got an array."},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.want, func(t *testing.T) {
			api.mu.Lock()
			before := len(api.requests)
			api.mu.Unlock()
			text, isErr := callTool(t, mc, tt.tool, tt.arguments)
			if !isErr || text != tt.want {
				t.Errorf("isError=%v text=%q\nwant isError=true text=%q", isErr, text, tt.want)
			}
			api.mu.Lock()
			defer api.mu.Unlock()
			if len(api.requests) != before {
				t.Error("an invalid call reached the API")
			}
		})
	}
}

func TestToolsRejectMissingDataMember(t *testing.T) {
	tc := errorCase{Status: 200, Body: json.RawMessage(`{"user":{}}`)}
	srv := statusServer(t, tc)
	text, isErr := callTool(t, connect(t, newTestClient(t, srv.URL)), ToolDeveloperContext, nil)
	want := `Unexpected response from Chronova at ` + srv.URL + `/users/current: no "data" member in the body.`
	if !isErr || text != want {
		t.Errorf("isError=%v text=%q\nwant %q", isErr, text, want)
	}
}

package search_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/mcptest"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/hub/search"
	"github.com/chronicle-dev/chronicle/hub/tokens"
)

// TestMetaToolsCostLittle checks the budget of search mode: the three
// meta-tools together cost at most 1,000 tokens of context, and the
// captured catalogue listed in full costs far more.
func TestMetaToolsCostLittle(t *testing.T) {
	meta := tokens.Tools(search.MetaTools())
	full := 0
	docs := catalog(t)
	for _, d := range docs {
		// As the hub lists a tool: its exposed name and its description
		// prefixed with the service.
		full += tokens.Tool(mcp.NewToolWithRawSchema(d.Name, "["+d.Service+"] "+d.Description, d.InputSchema))
	}
	t.Logf("meta-tools: %d tokens; the catalogue of %d tools listed in full: %d tokens (%.0f×)", meta, len(docs), full, float64(full)/float64(meta))
	if meta > 1000 {
		t.Errorf("the meta-tools cost %d tokens, more than 1,000", meta)
	}
	if full < 20*meta {
		t.Errorf("the full catalogue costs %d tokens, not 20 times the meta-tools' %d", full, meta)
	}
}

func TestMetaToolDefinitions(t *testing.T) {
	tools := search.MetaTools()
	var got []string
	for _, tool := range tools {
		got = append(got, tool.Name)
		var schema map[string]any
		if err := json.Unmarshal(tool.RawInputSchema, &schema); err != nil || schema["type"] != "object" {
			t.Errorf("%s: input schema %s", tool.Name, tool.RawInputSchema)
		}
		if tool.Name != search.CallToolName && !json.Valid(tool.RawOutputSchema) {
			t.Errorf("%s: output schema %s", tool.Name, tool.RawOutputSchema)
		}
		if _, err := json.Marshal(tool); err != nil {
			t.Errorf("%s does not marshal: %v", tool.Name, err)
		}
	}
	if strings.Join(got, ",") != "search_tools,describe_tools,call_tool" {
		t.Errorf("meta-tools %v", got)
	}
}

func call(name string, args string) mcp.CallToolRequest {
	var req mcp.CallToolRequest
	req.Params.Name = name
	req.Params.RawArguments = json.RawMessage(args)
	json.Unmarshal([]byte(args), &req.Params.Arguments)
	return req
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("result has %d contents", len(res.Content))
	}
	return res.Content[0].(mcp.TextContent).Text
}

func TestSearchTools(t *testing.T) {
	ix := search.NewIndex(catalog(t))
	res := search.SearchTools(ix, call("search_tools", `{"query":"take a screenshot of the page"}`))
	if res.IsError {
		t.Fatal(text(t, res))
	}
	var out struct {
		Tools []search.Result `json:"tools"`
	}
	if err := json.Unmarshal([]byte(text(t, res)), &out); err != nil {
		t.Fatalf("text is not the JSON of the result: %v", err)
	}
	structured, _ := json.Marshal(res.StructuredContent)
	if string(structured) != text(t, res) {
		t.Errorf("structured content %s differs from text %s", structured, text(t, res))
	}
	if len(out.Tools) != search.DefaultLimit || !strings.Contains(out.Tools[0].Name, "screenshot") {
		t.Errorf("got %d tools, first %+v", len(out.Tools), out.Tools[0])
	}
	for i, r := range out.Tools {
		if i > 0 && r.Score > out.Tools[i-1].Score || r.Description == "" {
			t.Errorf("result %d: %+v", i, r)
		}
	}

	res = search.SearchTools(ix, call("search_tools", `{"query":"merge","limit":50}`))
	json.Unmarshal([]byte(text(t, res)), &out)
	if len(out.Tools) != 50 {
		t.Errorf("limit 50 gave %d", len(out.Tools))
	}
	res = search.SearchTools(ix, call("search_tools", `{"query":"zyxxyq"}`))
	if res.IsError || text(t, res) != `{"tools":[]}` {
		t.Errorf("no match: %s", text(t, res))
	}
	for _, bad := range []string{`{"query":"x","limit":51}`, `{"query":"x","limit":2.5}`, `{}`, `{"query":""}`, `{"query":"x","extra":1}`} {
		if res := search.SearchTools(ix, call("search_tools", bad)); !res.IsError {
			t.Errorf("%s was accepted", bad)
		}
	}
}

func TestDescribeTools(t *testing.T) {
	ix := search.NewIndex(catalog(t))
	res := search.DescribeTools(ix, call("describe_tools", `{"names":["github__create_issue","memory__read_graph","github__create_issue"]}`))
	if res.IsError {
		t.Fatal(text(t, res))
	}
	var out struct {
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	json.Unmarshal([]byte(text(t, res)), &out)
	if len(out.Tools) != 2 || out.Tools[0].Name != "github__create_issue" || out.Tools[1].Name != "memory__read_graph" {
		t.Fatalf("described %+v", out.Tools)
	}
	d, _ := ix.Lookup("github__create_issue")
	var got, want any
	json.Unmarshal(out.Tools[0].InputSchema, &got)
	json.Unmarshal(d.InputSchema, &want)
	if out.Tools[0].Description != d.Description || !jsonEqual(got, want) {
		t.Errorf("described %s with %s", out.Tools[0].Description, out.Tools[0].InputSchema)
	}

	// A known and an unknown name: the known one is described, the
	// unknown one named (issue 21, item 18).
	res = search.DescribeTools(ix, call("describe_tools", `{"names":["github__create_issue","nope__x"]}`))
	var mixed struct {
		Tools   []struct{ Name string } `json:"tools"`
		Unknown []string                `json:"unknown"`
	}
	if err := json.Unmarshal([]byte(text(t, res)), &mixed); err != nil || res.IsError {
		t.Fatalf("a known and an unknown name: error %v, %s", res.IsError, text(t, res))
	}
	if len(mixed.Tools) != 1 || mixed.Tools[0].Name != "github__create_issue" || len(mixed.Unknown) != 1 || mixed.Unknown[0] != "nope__x" {
		t.Errorf("a known and an unknown name: %+v", mixed)
	}
	if sc, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(sc), `"unknown":["nope__x"]`) {
		t.Errorf("the structured content does not name the unknown tool: %s", sc)
	}
	res = search.DescribeTools(ix, call("describe_tools", `{"names":["nope__x","nope__y"]}`))
	if !res.IsError || !strings.Contains(text(t, res), "nope__x, nope__y") {
		t.Errorf("only unknown names: %v %s", res.IsError, text(t, res))
	}
	if res := search.DescribeTools(ix, call("describe_tools", `{"names":[]}`)); !res.IsError {
		t.Error("an empty list was accepted")
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestCheckCall(t *testing.T) {
	ix := search.NewIndex(catalog(t))
	orig := call("call_tool", `{"name":"github__create_issue","arguments":{"owner":"o","repo":"r","title":"t","milestone":9007199254740993}}`)
	orig.Params.Meta = &mcp.Meta{ProgressToken: "p1"}
	c, bad := search.CheckCall(ix, orig)
	if bad != nil {
		t.Fatal(text(t, bad))
	}
	req := c.Request(orig)
	if req.Params.Name != "github__create_issue" || req.Params.Meta == nil || req.Params.Meta.ProgressToken != "p1" {
		t.Errorf("routed request %+v", req.Params)
	}
	// Large integers pass through exactly.
	if !strings.Contains(string(req.Params.RawArguments), "9007199254740993") {
		t.Errorf("arguments %s", req.Params.RawArguments)
	}
	if req.GetArguments()["title"] != "t" {
		t.Errorf("decoded arguments %v", req.GetArguments())
	}

	// Arguments that fail the schema: the error names the failure and
	// carries the schema.
	_, bad = search.CheckCall(ix, call("call_tool", `{"name":"github__create_issue","arguments":{"owner":"o"}}`))
	if bad == nil || !bad.IsError {
		t.Fatal("missing required arguments were accepted")
	}
	msg := text(t, bad)
	if !strings.Contains(msg, "repo") || !strings.Contains(msg, `"required"`) {
		t.Errorf("error %s", msg)
	}
	if sc, ok := bad.StructuredContent.(map[string]any); !ok || sc["inputSchema"] == nil {
		t.Errorf("structured error %v", bad.StructuredContent)
	}

	for _, c := range []struct{ args, want string }{
		{`{"name":"nope__x","arguments":{}}`, "no tool named nope__x"},
		{`{"name":"github__create_issue"}`, "arguments"},
		{`{"name":"github__create_issue","arguments":[1]}`, "arguments"},
	} {
		_, bad := search.CheckCall(ix, call("call_tool", c.args))
		if bad == nil || !strings.Contains(text(t, bad), c.want) {
			t.Errorf("%s: %v", c.args, bad)
		}
	}
}

func TestValidateSchemas(t *testing.T) {
	docs := []search.Doc{
		{Name: "s__defs", InputSchema: json.RawMessage(`{"type":"object","$defs":{"d":{"type":"string","format":"date"}},"properties":{"at":{"$ref":"#/$defs/d"}},"required":["at"]}`)},
		{Name: "s__remote", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"$ref":"https://example.com/schema.json"}}}`)},
		{Name: "s__draft7", InputSchema: json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer"}}}`)},
		{Name: "s__none"},
	}
	ix := search.NewIndex(docs)
	for _, c := range []struct {
		name string
		args any
		ok   bool
	}{
		{"s__defs", map[string]any{"at": "2026-01-01"}, true},
		{"s__defs", map[string]any{"at": 5}, false},
		{"s__defs", nil, false},                     // omitted arguments are {}, which lacks "at"
		{"s__remote", map[string]any{"x": 1}, true}, // not compiled: the upstream judges
		{"s__draft7", map[string]any{"n": 1.5}, false},
		{"s__none", map[string]any{"anything": true}, true},
	} {
		err := ix.Validate(c.name, c.args)
		if (err == nil) != c.ok {
			t.Errorf("Validate(%s, %v) = %v", c.name, c.args, err)
		}
	}
	if err := ix.Validate("s__missing", nil); err == nil {
		t.Error("an unknown tool validated")
	}
}

// TestMetaToolsOverMCP serves the meta-tools from an MCP server, as the hub
// will, and uses them from a client the way a model would: search,
// describe, call.
func TestMetaToolsOverMCP(t *testing.T) {
	ix := search.NewIndex(catalog(t))
	tools := search.MetaTools()
	routed := ""
	srv, err := mcptest.NewServer(t,
		server.ServerTool{Tool: tools[0], Handler: func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return search.SearchTools(ix, r), nil
		}},
		server.ServerTool{Tool: tools[1], Handler: func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return search.DescribeTools(ix, r), nil
		}},
		server.ServerTool{Tool: tools[2], Handler: func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			c, bad := search.CheckCall(ix, r)
			if bad != nil {
				return bad, nil
			}
			routed = c.Request(r).Params.Name
			return mcp.NewToolResultText("ok"), nil
		}},
	)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	cl := srv.Client()

	listed, err := cl.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil || len(listed.Tools) != 3 {
		t.Fatalf("listed %v, %v", listed, err)
	}
	var req mcp.CallToolRequest
	req.Params.Name = "search_tools"
	req.Params.Arguments = map[string]any{"query": "list the pods in a namespace", "limit": 3}
	res, err := cl.CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("search_tools: %v %v", err, res)
	}
	found := res.StructuredContent.(map[string]any)["tools"].([]any)
	first := found[0].(map[string]any)["name"].(string)
	if len(found) != 3 || !strings.HasPrefix(first, "kubernetes__") {
		t.Fatalf("found %v", found)
	}

	req.Params.Name = "describe_tools"
	req.Params.Arguments = map[string]any{"names": []string{first}}
	if res, err = cl.CallTool(ctx, req); err != nil || res.IsError {
		t.Fatalf("describe_tools: %v %v", err, res)
	}

	req.Params.Name = "call_tool"
	req.Params.Arguments = map[string]any{"name": "kubernetes__kubectl_get", "arguments": map[string]any{"resourceType": "pods", "namespace": "default"}}
	if res, err = cl.CallTool(ctx, req); err != nil || res.IsError || routed != "kubernetes__kubectl_get" {
		t.Fatalf("call_tool: %v %+v routed %q", err, res, routed)
	}
}

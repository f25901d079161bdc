package hub

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// TestTaskOnlyToolThroughHub: a tool its service offers only as a task
// (execution.taskSupport "required") is offered as a plain tool, and a
// client's plain call of it is answered with the task's result: the hub
// makes the task upstream, waits for its result and keeps the upstream's
// handle to itself (decision 0210). It is listed as "optional": a client
// may ask for a task, and one that does not gets the result (0211).
func TestTaskOnlyToolThroughHub(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("tasks", "tasks", "")}, nil)
	r := startHub(t, path)
	c := connect(t, r.url, nil)

	tool, ok := toolNames(t, c)["tasks__long_job"]
	if !ok {
		t.Fatal("tasks__long_job is not offered")
	}
	if tool.Execution == nil || tool.Execution.TaskSupport != mcp.TaskSupportOptional {
		t.Errorf("the hub lists execution %+v, want taskSupport optional", tool.Execution)
	}
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = "tasks__long_job", map[string]any{"text": "hi"}
	res, err := c.CallTool(bounded(t), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || resultText(res) != "done: hi" {
		t.Errorf("the task's result: %+v", res)
	}
	if res.Meta != nil && res.Meta.AdditionalFields[mcp.RelatedTaskMetaKey] != nil {
		t.Errorf("the upstream's task handle reached the client: %v", res.Meta.AdditionalFields)
	}
}

// TestResearchTaskOfEverything: server-everything's
// simulate-research-query, which it offers only as a task, is offered
// through the hub and answers a plain call with its report.
func TestResearchTaskOfEverything(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{everythingService(t)}, nil)
	r := startHub(t, path)
	c := connect(t, r.url, nil)

	tool, ok := toolNames(t, c)["everything__simulate-research-query"]
	if !ok || tool.Execution == nil || tool.Execution.TaskSupport != mcp.TaskSupportOptional {
		t.Fatalf("everything__simulate-research-query: offered %v, execution %+v", ok, tool.Execution)
	}
	// The task's status changes come as progress of the call.
	notes := make(chan mcp.JSONRPCNotification, 64)
	c.OnNotification(func(n mcp.JSONRPCNotification) { notes <- n })
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = "everything__simulate-research-query", map[string]any{"topic": "hubs"}
	req.Params.Meta = &mcp.Meta{ProgressToken: "research"}
	res, err := c.CallTool(bounded(t), req)
	if err != nil {
		t.Fatal(err)
	}
	if text := resultText(res); res.IsError || !strings.Contains(text, "# Research Report: hubs") {
		t.Errorf("the research task answered (error %v): %.300s", res.IsError, text)
	}
	var last float64
	for seen := ""; seen != "Generating report..."; {
		n := waitfor.Receive(t, notes, "the research's last stage as progress")
		if n.Method != string(mcp.MethodNotificationProgress) {
			t.Fatalf("the client got %s: %v", n.Method, n.Params.AdditionalFields)
		}
		f := n.Params.AdditionalFields
		p, _ := f["progress"].(float64)
		if f["progressToken"] != "research" || p <= last {
			t.Errorf("progress %v after %v: %v", p, last, f)
		}
		last = p
		seen, _ = f["message"].(string)
	}
}

// TestUnlistedNameOnServiceEndpoint: on /mcp/service/NAME a call of a name
// the service did not list is the service's to answer, as if the client
// talked to it directly (server-everything answers with its own words for
// its own name), under the service's policy, over HTTP and stdio; the
// aggregated /mcp still answers such a name itself.
func TestUnlistedNameOnServiceEndpoint(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{everythingService(t)},
		map[string]state.Policy{"everything": {DisabledTools: []string{"secret-*"}}})
	r := startHub(t, path)

	c := connectAt(t, r.url+"/mcp/service/everything", "2025-11-25")
	if _, listed := toolNames(t, c)["no-such-tool"]; listed {
		t.Fatal("no-such-tool is listed")
	}
	var req mcp.CallToolRequest
	req.Params.Name = "no-such-tool"
	res, err := c.CallTool(bounded(t), req)
	if err != nil {
		t.Fatalf("the service's answer did not come through: %v", err)
	}
	if text := resultText(res); !res.IsError || !strings.Contains(text, "no-such-tool") || strings.Contains(text, "everything__") {
		t.Errorf("the service's answer to a name it does not list: %+v", res)
	}
	if got := callTool(t, c, "secret-tool", nil); !strings.Contains(resultText(got), "disabled by a chronicle policy") {
		t.Errorf("a name the policy disables, unlisted: %s", resultText(got))
	}
	if _, listed := toolNames(t, c)["no-such-tool"]; listed {
		t.Error("the called name is listed after the call")
	}

	// Over stdio, by --service, the same.
	sc := connectStdioWith(t, path, dir, "2025-11-25", stdioServiceEnv+"=everything")
	if got := callTool(t, sc, "no-such-tool", nil); !got.IsError || !strings.Contains(resultText(got), "no-such-tool") || strings.Contains(resultText(got), "everything__") {
		t.Errorf("serve --stdio --service everything, a name it does not list: %+v", got)
	}

	agg := connect(t, r.url, nil)
	req.Params.Name = "everything__no-such-tool"
	if res, err := agg.CallTool(bounded(t), req); err == nil {
		t.Errorf("/mcp passed a name no service lists on: %+v", res)
	}
}

// clarifier answers every elicitation with one interpretation.
type clarifier struct{ asked atomic.Int32 }

func (c *clarifier) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	c.asked.Add(1)
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"interpretation": "snake"}}}, nil
}

// TestResearchTaskAsksTheCaller: a task that needs input (server-everything's
// ambiguous research, whose elicitation comes while the hub waits in
// tasks/result) asks the client whose call made it, and its answer reaches
// the report.
func TestResearchTaskAsksTheCaller(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{everythingService(t)}, nil)
	r := startHub(t, path)
	tr, err := transport.NewStreamableHTTP(r.url + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	ask := &clarifier{}
	c := client.NewClient(tr, client.WithElicitationHandler(ask))
	t.Cleanup(func() { _ = c.Close() })
	ctx := bounded(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "hub-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	text, isErr := callText(t, c, "everything__simulate-research-query", map[string]any{"topic": "python", "ambiguous": true})
	if isErr || ask.asked.Load() != 1 || !strings.Contains(text, "# Research Report: python (snake)") {
		t.Errorf("asked %d times; the report (error %v): %.300s", ask.asked.Load(), isErr, text)
	}
}

package hub

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
)

// TestTaskOnlyToolThroughHub: a tool its service offers only as a task
// (execution.taskSupport "required") is offered as a plain tool, and a
// client's plain call of it is answered with the task's result: the hub
// makes the task upstream, waits for its result and keeps the upstream's
// handle to itself (decision 0210).
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
	if tool.Execution != nil {
		t.Errorf("the hub lists execution %+v: it offers its clients no tasks of its own", tool.Execution)
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
	if !ok || tool.Execution != nil {
		t.Fatalf("everything__simulate-research-query: offered %v, execution %+v", ok, tool.Execution)
	}
	text, isErr := callText(t, c, "everything__simulate-research-query", map[string]any{"topic": "hubs"})
	if isErr || !strings.Contains(text, "# Research Report: hubs") {
		t.Errorf("the research task answered (error %v): %.300s", isErr, text)
	}
}

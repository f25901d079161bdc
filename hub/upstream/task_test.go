package upstream

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// research is server-everything's tool it offers only as a task: four
// stages of a second each, then a report.
const research = "simulate-research-query"

// TestRequestTaskEverything: a task-only tool of server-everything is
// called as a task, its result fetched once the task ended, and answered
// without the upstream's task in its _meta.
func TestRequestTaskEverything(t *testing.T) {
	p, _ := newTestPool(t, PoolOptions{}, everythingSpec(t, "everything"))
	u := p.Get("everything")
	raw, err := u.RequestTask(testContext(t), nil, map[string]any{"name": research, "arguments": map[string]any{"topic": "pools"}})
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Content []mcp.TextContent `json:"content"`
		Meta    map[string]any    `json:"_meta"`
		Task    *json.RawMessage  `json:"task"`
		IsError bool              `json:"isError"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "# Research Report: pools") || res.Task != nil {
		t.Errorf("the task's result: %s", raw)
	}
	if _, ok := res.Meta[mcp.RelatedTaskMetaKey]; ok {
		t.Errorf("the upstream's task is named in the result: %s", raw)
	}
}

// TestRequestTaskCancelled: when the call a task serves ends first (here
// the service's timeout, shorter than the research's four seconds), the hub
// cancels the task upstream, and the upstream lists it cancelled.
func TestRequestTaskCancelled(t *testing.T) {
	spec := everythingSpec(t, "everything")
	spec.Timeout = 1500 * time.Millisecond
	p, _ := newTestPool(t, PoolOptions{}, spec)
	u := p.Get("everything")
	ctx := testContext(t)
	if raw, err := u.RequestTask(ctx, nil, map[string]any{"name": research, "arguments": map[string]any{"topic": "slow"}}); err == nil {
		t.Fatalf("the research finished within the timeout: %s", raw)
	}
	raw, err := u.Request(ctx, nil, string(mcp.MethodTasksList), map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Tasks []struct {
			Status string `json:"status"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Tasks) != 1 || list.Tasks[0].Status != string(mcp.TaskStatusCancelled) {
		t.Errorf("the upstream's tasks after the call ended: %s", raw)
	}
}

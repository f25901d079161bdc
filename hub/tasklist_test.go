package hub

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/hub/task"
)

// TestTaskListPages: a session given more tasks than a tasks/list page
// holds lists them in pages, oldest first, each task once, the last page
// without a cursor; a cursor that is not the hub's is refused with -32602,
// and another session's list holds none of them.
func TestTaskListPages(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("tasks", "tasks", "")}, nil)
	r := startHub(t, path)
	c := connectTasks(t, r.url+"/mcp")

	var made []string
	for i := range task.Page + 1 {
		resp := c.rpc(t, string(mcp.MethodToolsCall), map[string]any{"name": "tasks__long_job", "arguments": map[string]any{"text": fmt.Sprint(i)}, "task": map[string]any{}})
		var created mcp.CreateTaskResult
		if resp.Error != nil || json.Unmarshal(resp.Result, &created) != nil || created.Task.TaskId == "" {
			t.Fatalf("task %d: %+v %s", i, resp.Error, resp.Result)
		}
		made = append(made, created.Task.TaskId)
	}

	var listed []string
	cursor := ""
	for page := 1; ; page++ {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		resp := c.rpc(t, string(mcp.MethodTasksList), params)
		var l mcp.ListTasksResult
		if resp.Error != nil || json.Unmarshal(resp.Result, &l) != nil {
			t.Fatalf("tasks/list page %d: %+v %s", page, resp.Error, resp.Result)
		}
		for _, tk := range l.Tasks {
			listed = append(listed, tk.TaskId)
		}
		if want := min(task.Page, len(made)-(page-1)*task.Page); len(l.Tasks) != want {
			t.Errorf("page %d holds %d tasks, want %d", page, len(l.Tasks), want)
		}
		if cursor = string(l.NextCursor); cursor == "" || page > len(made) {
			break
		}
	}
	if fmt.Sprint(listed) != fmt.Sprint(made) {
		t.Errorf("the pages list\n%v\nwant, oldest first, each once,\n%v", listed, made)
	}
	if resp := c.rpc(t, string(mcp.MethodTasksList), map[string]any{"cursor": "not-a-cursor"}); resp.Error == nil || resp.Error.Code != mcp.INVALID_PARAMS {
		t.Errorf("a made-up cursor: %+v %s, want -32602", resp.Error, resp.Result)
	}
	other := connectTasks(t, r.url+"/mcp")
	if l, err := other.ListTasks(bounded(t), mcp.ListTasksRequest{}); err != nil || len(l.Tasks) != 0 {
		t.Errorf("another session lists %d tasks, %v", len(l.Tasks), err)
	}
}

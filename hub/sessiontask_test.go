package hub

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// TestTasksOverStdio: a 2025-11-25 client of serve --stdio is handed tasks
// as one over Streamable HTTP is (decision 0211, extended by 0235): the hub
// declares tasks and lists server-everything's research as task-capable; a
// call that asks for a task is answered with the task under a sealed
// handle, whose tasks/get, tasks/result, tasks/list and tasks/cancel the hub
// answers; the task's status comes under the handle; a made-up handle is
// refused with -32602; a call that asks for no task gets the result.
func TestTasksOverStdio(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{everythingService(t)}, nil)
	c := connectStdio(t, path, "", dir, "2025-11-25")
	notes := make(chan mcp.JSONRPCNotification, 256)
	// connectStdio does not Start the client, which would hand it the
	// transport's notifications: the transport hands them here.
	c.GetTransport().SetNotificationHandler(func(n mcp.JSONRPCNotification) {
		select {
		case notes <- n:
		default:
		}
	})
	tasksOfASession(t, c, notes)
}

// TestTasksOverSSE: a 2025-11-25 client of the legacy HTTP+SSE pair is
// handed tasks as a stdio client is (TestTasksOverStdio): the hub answers
// its tasks requests on the session's stream.
func TestTasksOverSSE(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{everythingService(t)}, nil)
	r := startHub(t, path)
	tr, err := transport.NewSSE(r.url + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr)
	t.Cleanup(func() { _ = c.Close() })
	notes := make(chan mcp.JSONRPCNotification, 256)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		select {
		case notes <- n:
		default:
		}
	})
	if err := c.Start(bounded(t)); err != nil {
		t.Fatal(err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = "2025-11-25"
	init.Params.ClientInfo = mcp.Implementation{Name: "sse-test", Version: "1"}
	if _, err := c.Initialize(bounded(t), init); err != nil {
		t.Fatal(err)
	}
	tasksOfASession(t, c, notes)
}

// tasksOfASession runs server-everything's research as tasks through the
// hub for a session-era client c, whose notifications come on notes.
func tasksOfASession(t *testing.T, c *client.Client, notes chan mcp.JSONRPCNotification) {
	t.Helper()
	if caps := c.GetServerCapabilities().Tasks; caps == nil || caps.List == nil || caps.Cancel == nil || caps.Requests == nil {
		t.Fatalf("the hub declares tasks %+v", caps)
	}
	research := "everything__simulate-research-query"
	if ex := toolNames(t, c)[research].Execution; ex == nil || ex.TaskSupport != mcp.TaskSupportOptional {
		t.Errorf("%s is listed with execution %+v, want taskSupport optional", research, ex)
	}

	seq := int64(100)
	rpc := func(method string, params any) *transport.JSONRPCResponse {
		t.Helper()
		seq++
		resp, err := c.GetTransport().SendRequest(bounded(t), transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(seq), Method: method, Params: params})
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		return resp
	}
	start := func(topic string) string {
		t.Helper()
		resp := rpc(string(mcp.MethodToolsCall), map[string]any{"name": research, "arguments": map[string]any{"topic": topic}, "task": map[string]any{"ttl": 60000}})
		var created mcp.CreateTaskResult
		if resp.Error != nil || json.Unmarshal(resp.Result, &created) != nil || !strings.Contains(created.Task.TaskId, ".") || created.Task.Status != mcp.TaskStatusWorking {
			t.Fatalf("a task of %s: %+v %s", research, resp.Error, resp.Result)
		}
		return created.Task.TaskId
	}

	handle := start("pipes")
	res, err := c.TaskResult(bounded(t), mcp.TaskResultRequest{Params: mcp.TaskResultParams{TaskId: handle}})
	if err != nil || !strings.Contains(resultText(&mcp.CallToolResult{Content: res.Content}), "# Research Report: pipes") {
		t.Fatalf("tasks/result: %v %v", res, err)
	}
	if got, err := c.GetTask(bounded(t), mcp.GetTaskRequest{Params: mcp.GetTaskParams{TaskId: handle}}); err != nil || got.Status != mcp.TaskStatusCompleted {
		t.Errorf("tasks/get after the result: %+v, %v", got, err)
	}
	for {
		n := waitfor.Receive(t, notes, "a status notification of the task")
		if n.Method != string(mcp.MethodNotificationTasksStatus) {
			continue
		}
		if id := n.Params.AdditionalFields["taskId"]; id != handle {
			t.Fatalf("a status notification names %v, not the handle", id)
		}
		break
	}

	second := start("stopped")
	if cancelled, err := c.CancelTask(bounded(t), mcp.CancelTaskRequest{Params: mcp.CancelTaskParams{TaskId: second}}); err != nil || cancelled.Status != mcp.TaskStatusCancelled {
		t.Errorf("tasks/cancel: %+v, %v", cancelled, err)
	}
	list, err := c.ListTasks(bounded(t), mcp.ListTasksRequest{})
	if err != nil || len(list.Tasks) != 2 || list.Tasks[0].TaskId != handle || list.Tasks[1].Status != mcp.TaskStatusCancelled {
		t.Errorf("tasks/list: %+v, %v", list, err)
	}
	if resp := rpc(string(mcp.MethodTasksGet), map[string]any{"taskId": "786512e2-9e0d-44bd-8f29-789f320fe840"}); resp.Error == nil || resp.Error.Code != mcp.INVALID_PARAMS {
		t.Errorf("a made-up handle: %+v", resp.Error)
	}
	if res := callTool(t, c, research, map[string]any{"topic": "plain"}); !strings.Contains(resultText(res), "# Research Report: plain") {
		t.Errorf("a call that asks for no task: %v", res)
	}
}

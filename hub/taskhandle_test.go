package hub

import (
	"encoding/base64"
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

// taskClient is a session-era client of an endpoint, with its transport
// at hand for what mcp-go's client has no call for (a task-augmented
// tools/call, whose answer is a task, not a tool result).
type taskClient struct {
	*client.Client
	tr    *transport.StreamableHTTP
	init  *mcp.InitializeResult
	notes chan mcp.JSONRPCNotification
	seq   int64
}

func connectTasks(t *testing.T, endpoint string) *taskClient {
	t.Helper()
	//lint:ignore SA1019 the hub sends tasks/status on the standalone GET stream of the 2025 revisions
	tr, err := transport.NewStreamableHTTP(endpoint, transport.WithContinuousListening())
	if err != nil {
		t.Fatal(err)
	}
	c := &taskClient{Client: client.NewClient(tr), tr: tr, notes: make(chan mcp.JSONRPCNotification, 256), seq: 1000}
	t.Cleanup(func() { _ = c.Close() })
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		select {
		case c.notes <- n:
		default:
		}
	})
	ctx := bounded(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = "2025-11-25"
	init.Params.ClientInfo = mcp.Implementation{Name: "hub-test", Version: "1"}
	if c.init, err = c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c
}

// rpc sends one request and returns its answer as it came.
func (c *taskClient) rpc(t *testing.T, method string, params any) *transport.JSONRPCResponse {
	t.Helper()
	c.seq++
	resp, err := c.tr.SendRequest(bounded(t), transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(c.seq), Method: method, Params: params})
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return resp
}

// startTask calls tool as a task and returns the handle it was given.
func (c *taskClient) startTask(t *testing.T, tool string, args map[string]any) string {
	t.Helper()
	resp := c.rpc(t, string(mcp.MethodToolsCall), map[string]any{"name": tool, "arguments": args, "task": map[string]any{"ttl": 60000}})
	if resp.Error != nil {
		t.Fatalf("a task of %s: %+v", tool, resp.Error)
	}
	var created mcp.CreateTaskResult
	if err := json.Unmarshal(resp.Result, &created); err != nil || created.Task.TaskId == "" {
		t.Fatalf("a task of %s was answered %s (%v)", tool, resp.Result, err)
	}
	if created.Task.Status != mcp.TaskStatusWorking {
		t.Errorf("the new task is %s", created.Task.Status)
	}
	return created.Task.TaskId
}

// taskError returns the code of the error method is answered with for
// the handle, or 0.
func (c *taskClient) taskError(t *testing.T, method, handle string) int {
	t.Helper()
	if resp := c.rpc(t, method, map[string]any{"taskId": handle}); resp.Error != nil {
		return resp.Error.Code
	}
	return 0
}

// TestTasksHandedToClients: a session-era client that asks for a task
// gets server-everything's research as a task of the hub's: the hub
// declares tasks, lists the tool as task-capable, hands out a sealed handle
// of its own, and routes tasks/get, tasks/result, tasks/list and
// tasks/cancel to the upstream task; the task's status notifications come
// under the handle. A handle altered, another session's, or sent to
// another service's endpoint is refused with -32602 (decision 0211).
func TestTasksHandedToClients(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{everythingService(t), testService("tasks", "tasks", "")}, nil)
	r := startHub(t, path)
	c := connectTasks(t, r.url+"/mcp")

	caps := c.init.Capabilities.Tasks
	if caps == nil || caps.List == nil || caps.Cancel == nil || caps.Requests == nil || caps.Requests.Tools == nil || caps.Requests.Tools.Call == nil {
		t.Fatalf("the hub declares tasks %+v", caps)
	}
	tools := toolNames(t, c.Client)
	research := "everything__simulate-research-query"
	if ex := tools[research].Execution; ex == nil || ex.TaskSupport != mcp.TaskSupportOptional {
		t.Errorf("%s is listed with execution %+v, want taskSupport optional", research, ex)
	}
	if ex := tools["tasks__echo"].Execution; ex != nil {
		t.Errorf("tasks__echo, no task, is listed with execution %+v", ex)
	}

	handle := c.startTask(t, research, map[string]any{"topic": "hubs"})
	if _, err := base64.RawURLEncoding.DecodeString(strings.Split(handle, ".")[0]); err != nil || !strings.Contains(handle, ".") {
		t.Errorf("the handle %q is not the hub's", handle)
	}
	got, err := c.GetTask(bounded(t), mcp.GetTaskRequest{Params: mcp.GetTaskParams{TaskId: handle}})
	if err != nil || got.TaskId != handle {
		t.Fatalf("tasks/get of the handle: %+v, %v", got, err)
	}
	res, err := c.TaskResult(bounded(t), mcp.TaskResultRequest{Params: mcp.TaskResultParams{TaskId: handle}})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if !strings.Contains(text.String(), "# Research Report: hubs") {
		t.Errorf("tasks/result: %.300s", text.String())
	}
	if rel, _ := res.Meta.AdditionalFields[mcp.RelatedTaskMetaKey].(map[string]any); rel != nil && rel["taskId"] != handle {
		t.Errorf("the result's related task is %v, not the handle", rel["taskId"])
	}
	done, err := c.GetTask(bounded(t), mcp.GetTaskRequest{Params: mcp.GetTaskParams{TaskId: handle}})
	if err != nil || done.Status != mcp.TaskStatusCompleted {
		t.Errorf("tasks/get after the result: %+v, %v", done, err)
	}
	// The task's status came to this client, under the handle.
	for {
		n := waitfor.Receive(t, c.notes, "a status notification of the task")
		if n.Method != string(mcp.MethodNotificationTasksStatus) {
			continue
		}
		if id := n.Params.AdditionalFields["taskId"]; id != handle {
			t.Fatalf("a status notification names %v, not the handle", id)
		}
		break
	}

	// One cancelled: the upstream's task ends cancelled.
	second := c.startTask(t, research, map[string]any{"topic": "slow"})
	cancelled, err := c.CancelTask(bounded(t), mcp.CancelTaskRequest{Params: mcp.CancelTaskParams{TaskId: second}})
	if err != nil || cancelled.TaskId != second || cancelled.Status != mcp.TaskStatusCancelled {
		t.Errorf("tasks/cancel: %+v, %v", cancelled, err)
	}
	list, err := c.ListTasks(bounded(t), mcp.ListTasksRequest{})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]mcp.TaskStatus{}
	for _, tk := range list.Tasks {
		status[tk.TaskId] = tk.Status
	}
	if len(status) != 2 || status[handle] != mcp.TaskStatusCompleted || status[second] != mcp.TaskStatusCancelled {
		t.Errorf("tasks/list: %v", status)
	}

	// Refused: altered, another session's, another service's endpoint.
	payload, mac, _ := strings.Cut(handle, ".")
	b, _ := base64.RawURLEncoding.DecodeString(payload)
	forged := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(b), `"s":"everything"`, `"s":"tasks"`, 1))) + "." + mac
	for name, h := range map[string]string{"altered": forged, "made up": "786512e2-9e0d-44bd-8f29-789f320fe840", "truncated": handle[:len(handle)-3]} {
		if code := c.taskError(t, string(mcp.MethodTasksGet), h); code != mcp.INVALID_PARAMS {
			t.Errorf("tasks/get of a %s handle: error %d, want -32602", name, code)
		}
	}
	other := connectTasks(t, r.url+"/mcp")
	if code := other.taskError(t, string(mcp.MethodTasksResult), handle); code != mcp.INVALID_PARAMS {
		t.Errorf("another session's handle: error %d, want -32602", code)
	}
	if l, err := other.ListTasks(bounded(t), mcp.ListTasksRequest{}); err != nil || len(l.Tasks) != 0 {
		t.Errorf("another session lists %+v, %v", l, err)
	}
	// A client of a revision before tasks is offered none.
	older := connectAt(t, r.url+"/mcp", "2025-06-18")
	if ex := toolNames(t, older)[research].Execution; ex != nil {
		t.Errorf("a 2025-06-18 client is listed execution %+v", ex)
	}
	b2 := connectTasks(t, r.url+"/mcp/service/tasks")
	for _, m := range []mcp.MCPMethod{mcp.MethodTasksGet, mcp.MethodTasksCancel} {
		if code := b2.taskError(t, string(m), handle); code != mcp.INVALID_PARAMS {
			t.Errorf("%s of everything's handle on /mcp/service/tasks: error %d, want -32602", m, code)
		}
	}
}

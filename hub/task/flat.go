package task

import (
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
)

// The 2026-07-28 tasks extension (SEP-2663; the extension's specification,
// modelcontextprotocol/ext-tasks specification/draft/tasks.md, and the
// conformance suite's tasks-* scenarios) changed the shape of a task from
// the 2025-11-25 revision's:
//
//	2025-11-25 (the hub's upstreams)          2026-07-28 (its stateless clients)
//	CreateTaskResult {task: {…}}              {resultType: "task", taskId, status, …} (flat)
//	ttl, pollInterval                         ttlMs (null: unlimited), pollIntervalMs
//	tasks/get → the task                      the task, resultType "complete", and by status:
//	tasks/result → the result (or the error)    completed: result inlined; failed: error inlined
//	a tool's isError result: status failed    status completed, the result inlined
//	tasks/cancel → the task                   {resultType: "complete"}, also for an ended task
//	tasks/list                                none (-32601)
//
// flatTask is a task in the 2026-07-28 shape: exactly its members, so that
// nothing of the 2025-11-25 shape (ttl, pollInterval) reaches the client.
type flatTask struct {
	ResultType     string          `json:"resultType"`
	TaskID         string          `json:"taskId"`
	Status         mcp.TaskStatus  `json:"status"`
	StatusMessage  string          `json:"statusMessage,omitempty"`
	CreatedAt      string          `json:"createdAt"`
	LastUpdatedAt  string          `json:"lastUpdatedAt"`
	TTLMs          *int64          `json:"ttlMs"`
	PollIntervalMs *int64          `json:"pollIntervalMs,omitempty"`
	InputRequests  *struct{}       `json:"inputRequests,omitempty"`
	Result         json.RawMessage `json:"result,omitempty"`
	Error          json.RawMessage `json:"error,omitempty"`
	Meta           json.RawMessage `json:"_meta,omitempty"`
}

// Created returns an upstream's answer to a task-augmented tools/call
// (a 2025-11-25 CreateTaskResult) as the 2026-07-28 CreateTaskResult, under
// the hub's handle: flat, resultType "task".
func Created(raw json.RawMessage, handle string) (json.RawMessage, error) {
	var created struct {
		Task *mcp.Task      `json:"task"`
		Meta map[string]any `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &created); err != nil || created.Task == nil {
		return nil, fmt.Errorf("the answer is not a task: %s", raw)
	}
	out := flat(*created.Task, handle, "task")
	delete(created.Meta, mcp.RelatedTaskMetaKey)
	if len(created.Meta) > 0 {
		out.Meta, _ = json.Marshal(created.Meta)
	}
	return json.Marshal(out)
}

// flat is a 2025-11-25 task in the 2026-07-28 shape, under the handle.
func flat(t mcp.Task, handle, resultType string) flatTask {
	return flatTask{
		ResultType: resultType, TaskID: handle, Status: t.Status, StatusMessage: t.StatusMessage,
		CreatedAt: t.CreatedAt, LastUpdatedAt: t.LastUpdatedAt, TTLMs: t.TTL, PollIntervalMs: t.PollInterval,
	}
}

// detailed returns a 2025-11-25 tasks/get answer as the 2026-07-28 one
// (GetTaskResult: the task, resultType "complete"), given the upstream's
// answer to tasks/result for a task that ended (nil while it runs): a
// result is inlined as result, with the task completed — 2026-07-28 keeps
// failed for a JSON-RPC error, a tool's isError result is a completed
// task's —, an error as error, with the task failed.
func detailed(got json.RawMessage, handle string, result json.RawMessage, failure json.RawMessage) (json.RawMessage, error) {
	var t mcp.Task
	if err := json.Unmarshal(got, &t); err != nil || t.Status == "" {
		return nil, fmt.Errorf("the answer to tasks/get is not a task: %s", got)
	}
	out := flat(t, handle, string(mcp.ResultTypeComplete))
	switch {
	case result != nil:
		out.Status, out.Result = mcp.TaskStatusCompleted, rpc.WithoutRelatedTask(result)
	case failure != nil:
		out.Status, out.Error = mcp.TaskStatusFailed, failure
	case t.Status == mcp.TaskStatusInputRequired:
		// What the upstream asks comes with a tasks/result the hub does
		// not hold for a stateless client (decision 0235): the status is
		// told, with no request to answer.
		out.InputRequests = &struct{}{}
	}
	return json.Marshal(out)
}

package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
	"github.com/mark3labs/mcp-go/mcp"
)

// In the 2025-11-25 revision a server may offer a tool only as a task
// (execution.taskSupport "required"): the client asks for a task in the
// call's params.task, is answered a handle (CreateTaskResult), and fetches
// the result with tasks/result, which waits until the task has ended. The
// hub offers its clients no tasks of its own (decision 0210): it calls such
// a tool as a task itself, waits for the result within the client's call,
// and answers with it — so the upstream's handle never leaves the hub, and
// a client that cancels its call cancels the task.

// taskMargin is how much longer than the service's timeout the hub asks an
// upstream to keep a task: tasks/result may come that late, not later.
const taskMargin = time.Minute

// taskCancelGrace bounds the tasks/cancel the hub sends when the call a
// task serves ended first.
const taskCancelGrace = 5 * time.Second

// RequestTask sends a tools/call (params as Request takes them) on the
// session as a task, waits for its result with tasks/result and returns it
// raw, without the upstream's task in its _meta. An upstream that answers
// with a result at once, not a task, is answered with that result. When ctx
// ends or the service's timeout passes before the task did, the task is
// cancelled (tasks/cancel) as well as the request that waited for it.
// caller is whom the call is made for: what the upstream asks while the
// task runs (elicitation, sampling) is asked of them.
func (u *Upstream) RequestTask(ctx context.Context, caller any, params any) (json.RawMessage, error) {
	s, err := u.session(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.openSessionEra(ctx); err != nil {
		return nil, u.errorf("tasks need the session era: %w", err)
	}
	ttl := (u.Timeout() + taskMargin).Milliseconds()
	body, err := rpc.WithMember(params, "task", mcp.TaskParams{TTL: &ttl})
	if err != nil {
		return nil, u.errorf("%s: %w", mcp.MethodToolsCall, err)
	}
	raw, err := u.send(ctx, s, false, caller, string(mcp.MethodToolsCall), body, nil)
	if err != nil {
		return nil, err
	}
	var created struct {
		Task *struct {
			TaskID string `json:"taskId"`
		} `json:"task"`
	}
	if json.Unmarshal(raw, &created) != nil || created.Task == nil || created.Task.TaskID == "" {
		return raw, nil
	}
	id := created.Task.TaskID
	if tok := rpc.ProgressToken(body); tok != nil {
		u.tasks.Store(id, &taskWatch{token: tok})
		defer u.tasks.Delete(id)
	}
	res, err := u.send(ctx, s, false, caller, string(mcp.MethodTasksResult), map[string]any{"taskId": id}, nil)
	var refused *rpc.RPCError
	if err != nil && !errors.As(err, &refused) {
		// No answer (the client cancelled, the timeout passed, the
		// connection failed): the task would run on for nobody.
		u.cancelTask(s, id)
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	return rpc.WithoutRelatedTask(res), nil
}

// A taskWatch is a task RequestTask waits for whose call asked for
// progress: the task's status changes reach the client as progress of the
// call (decision 0210), the upstream's handle left out.
type taskWatch struct {
	token any // the hub's progress token of the call

	mu   sync.Mutex
	last float64 // the last progress sent under token, the upstream's or the hub's
}

// taskStatus turns a notifications/tasks/status of a task RequestTask waits
// for into a notifications/progress of its call, whose message is the
// status message (or the status): progress counts on from the last value
// sent under the call's token, so it only grows. Other status notifications
// go to OnNotification as they came: the hub passes on those of a task it
// handed to a client, under its own handle (decision 0211).
func (u *Upstream) taskStatus(n mcp.JSONRPCNotification) {
	if u.opts.OnNotification == nil {
		return
	}
	id, _ := n.Params.AdditionalFields["taskId"].(string)
	v, ok := u.tasks.Load(id)
	if !ok {
		u.opts.OnNotification(u.spec.Name, n)
		return
	}
	w := v.(*taskWatch)
	msg, _ := n.Params.AdditionalFields["statusMessage"].(string)
	if msg == "" {
		msg, _ = n.Params.AdditionalFields["status"].(string)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.last++
	u.opts.OnNotification(u.spec.Name, mcp.JSONRPCNotification{
		JSONRPC: mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{
			Method: string(mcp.MethodNotificationProgress),
			Params: mcp.NotificationParams{AdditionalFields: map[string]any{"progressToken": w.token, "progress": w.last, "message": msg}},
		},
	})
}

// progressed notes the progress an upstream sent for a task RequestTask
// waits for, so that a status the hub turns into progress counts on from
// it.
func (u *Upstream) progressed(n mcp.JSONRPCNotification) {
	tok := n.Params.AdditionalFields["progressToken"]
	p, ok := n.Params.AdditionalFields["progress"].(float64)
	switch tok.(type) {
	case string, float64: // a token is one of these; anything else compares with nothing
	default:
		return
	}
	if !ok {
		return
	}
	u.tasks.Range(func(_, v any) bool {
		w := v.(*taskWatch)
		if w.token != tok {
			return true
		}
		w.mu.Lock()
		w.last = max(w.last, p)
		w.mu.Unlock()
		return false
	})
}

// cancelTask asks the upstream to cancel task id, bounded by
// taskCancelGrace; its answer changes nothing for the hub.
func (u *Upstream) cancelTask(s *session, id string) {
	ctx, cancel := context.WithTimeout(u.ctx, taskCancelGrace)
	defer cancel()
	_, _ = s.sessionTransport().SendRequest(ctx, rpc.NewRequest(string(mcp.MethodTasksCancel), map[string]any{"taskId": id}))
}

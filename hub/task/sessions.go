package task

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// A Sessions answers the tasks requests of session-era clients (decision
// 0211): tasks/get, tasks/result and tasks/cancel go to the upstream task a
// handle names, in the shape the upstream answered, under the handle;
// tasks/list lists the session's own tasks.
type Sessions struct {
	*Router
	// Routes are the tasks the hub handed out, per session.
	Routes *relay.PassThrough
	// Enter returns ctx for the session cs, as mcp-go's handlers see it.
	Enter func(ctx context.Context, cs *session.Session) context.Context
}

// Serve answers a tasks/get, tasks/result, tasks/list or tasks/cancel of
// the session cs (body is the request as sent): with the raw result, or
// the JSON-RPC error to answer with. ctx is the request's, with its
// endpoint.
func (s *Sessions) Serve(ctx context.Context, cs *session.Session, body []byte) (json.RawMessage, *session.RPCError) {
	ctx = s.Enter(ctx, cs)
	m := wire.Peek(body)
	c := relay.CallerOf(ctx)
	c.Session = cs.ID()
	if m.Is(mcp.MethodTasksList) {
		return s.list(ctx, c, m.Params)
	}
	var p struct {
		TaskID string `json:"taskId"`
	}
	if json.Unmarshal(m.Params, &p) != nil || p.TaskID == "" {
		return nil, &session.RPCError{Code: mcp.INVALID_PARAMS, Message: "params.taskId is required"}
	}
	t, err := s.Open(ctx, p.TaskID, Session(c.Session))
	if err != nil {
		return nil, &session.RPCError{Code: mcp.INVALID_PARAMS, Message: fmt.Sprintf("%v: %s", err, p.TaskID)}
	}
	raw, rerr := s.Send(ctx, c, t, wire.StringValue(m.Method))
	if rerr != nil {
		return nil, rerr
	}
	out, err := WithHandle(raw, p.TaskID)
	if err != nil {
		return nil, &session.RPCError{Code: mcp.INTERNAL_ERROR, Message: t.Service + ": " + err.Error()}
	}
	return out, nil
}

// Page is how many tasks one tasks/list page holds: each costs the hub a
// tasks/get of its upstream.
const Page = 50

// list answers tasks/list with the session's own tasks, a page from the
// cursor on, each as its service reports it now; one that is gone
// (expired, or its upstream session ended) is left out.
func (s *Sessions) list(ctx context.Context, c *relay.Caller, params json.RawMessage) (json.RawMessage, *session.RPCError) {
	var p struct {
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(params, &p)
	after, err := OpenCursor(p.Cursor)
	if err != nil {
		return nil, &session.RPCError{Code: mcp.INVALID_PARAMS, Message: err.Error()}
	}
	handles, next := s.Routes.TasksOf(c.Session, after, Page)
	page := struct {
		Tasks      []json.RawMessage `json:"tasks"`
		NextCursor string            `json:"nextCursor,omitempty"`
	}{Tasks: []json.RawMessage{}, NextCursor: Cursor(next)}
	for _, handle := range handles {
		t, err := s.Open(ctx, handle, Session(c.Session))
		if err != nil {
			continue
		}
		raw, rerr := s.Send(ctx, c, t, string(mcp.MethodTasksGet))
		if rerr != nil {
			continue
		}
		if out, err := WithHandle(raw, handle); err == nil {
			page.Tasks = append(page.Tasks, out)
		}
	}
	b, _ := json.Marshal(page)
	return b, nil
}

package relay

import (
	"context"
	"encoding/json"
)

// A TaskBackend is a backend that can call a tool its service offers only
// as a task (poolBackend): RequestTask sends the tools/call as a task,
// waits for the task's result and returns it raw; ending ctx cancels the
// task (decision 0210).
type TaskBackend interface {
	RequestTask(ctx context.Context, caller *Caller, params any) (json.RawMessage, error)
}

// RequestTask calls a task-only tool on the upstream that serves the
// caller's session, in the session's revision: a task handle is an
// upstream session's, so the task is made, waited for and cancelled on the
// one upstream it belongs to.
func (b poolBackend) RequestTask(ctx context.Context, c *Caller, params any) (json.RawMessage, error) {
	var who any
	session := ""
	if c != nil {
		who, session = c, c.Session
	}
	u, err := b.getFor(session)
	if err != nil {
		return nil, err
	}
	return u.RequestTask(ctx, who, params)
}

package relay

import (
	"context"
	"encoding/json"
)

// RequestTask calls a task-only tool on the upstream that serves the
// caller's session, in the session's revision: a task handle is an
// upstream session's, so the task is made, waited for and cancelled on the
// one upstream it belongs to.
func (b poolBackend) RequestTask(ctx context.Context, c *Caller, params any) (json.RawMessage, error) {
	u, who, err := b.upstreamFor(c)
	if err != nil {
		return nil, err
	}
	return u.RequestTask(ctx, who, params)
}

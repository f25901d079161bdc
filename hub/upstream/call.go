package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// timeoutsBeforeRestart is how many calls in a row may time out before the
// upstream is taken for wedged and restarted.
const timeoutsBeforeRestart = 3

// Catalog returns what the service offers, listed once per session and
// listed again after a restart or a list_changed notification.
func (u *Upstream) Catalog(ctx context.Context) (Catalog, error) {
	c, err := call(ctx, u, "list", func(ctx context.Context, s *session) (*Catalog, error) {
		return u.catalog(ctx, s)
	})
	if err != nil {
		return Catalog{Service: u.spec.Name, Err: err}, err
	}
	return *c, nil
}

// catalog returns the session's catalog, listing it if it is not known.
func (u *Upstream) catalog(ctx context.Context, s *session) (*Catalog, error) {
	select {
	case s.listing <- struct{}{}:
		defer func() { <-s.listing }()
	case <-ctx.Done():
		return nil, transport.NewError(ctx.Err())
	}
	c, gen := s.cached()
	if c != nil {
		return c, nil
	}
	var meta map[string]any
	if s.modern != nil {
		meta = u.modernMeta(nil)
	}
	c, err := list(ctx, s, meta)
	if err != nil {
		return nil, err
	}
	c.Service = u.spec.Name
	s.store(c, gen)
	return c, nil
}

// CallTool calls one of the service's tools. args is the arguments object:
// a json.RawMessage passed through as it is, a map[string]any, or nil. A
// tool that fails answers with a result whose IsError is set; the error is
// for calls that got no answer.
func (u *Upstream) CallTool(ctx context.Context, tool string, args any) (*mcp.CallToolResult, error) {
	if raw, ok := args.(json.RawMessage); ok && len(raw) == 0 {
		args = nil
	}
	return call(ctx, u, "tools/call "+tool, func(ctx context.Context, s *session) (*mcp.CallToolResult, error) {
		req := mcp.CallToolRequest{}
		req.Params.Name = tool
		req.Params.Arguments = args
		return s.client.CallTool(ctx, req)
	})
}

// GetPrompt gets one of the service's prompts.
func (u *Upstream) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	return call(ctx, u, "prompts/get "+name, func(ctx context.Context, s *session) (*mcp.GetPromptResult, error) {
		req := mcp.GetPromptRequest{}
		req.Params.Name = name
		req.Params.Arguments = args
		return s.client.GetPrompt(ctx, req)
	})
}

// ReadResource reads one of the service's resources.
func (u *Upstream) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	return call(ctx, u, "resources/read "+uri, func(ctx context.Context, s *session) (*mcp.ReadResourceResult, error) {
		req := mcp.ReadResourceRequest{}
		req.Params.URI = uri
		return s.client.ReadResource(ctx, req)
	})
}

// call runs fn on a live session within the service's timeout, and turns
// what went wrong into an error that names the service and says what to
// expect: a timeout, a session that was lost (and will be restarted), or
// the upstream's own error.
func call[T any](ctx context.Context, u *Upstream, what string, fn func(context.Context, *session) (T, error)) (T, error) {
	var zero T
	s, err := u.session(ctx)
	if err != nil {
		return zero, err
	}
	timeout := u.Timeout()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := fn(cctx, s)
	if err == nil {
		s.answered()
		return res, nil
	}
	var te *transport.Error
	switch why := u.ended(); {
	case why != "":
		return zero, u.errorf("%s: %s", what, why)
	case ctx.Err() != nil:
		return zero, u.errorf("%s: %w", what, ctx.Err())
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		if s.timedOut() >= timeoutsBeforeRestart {
			u.lost(s, fmt.Sprintf("%d calls in a row timed out", timeoutsBeforeRestart))
		}
		return zero, u.errorf("%s: no answer within the %s timeout: %w", what, timeout, context.DeadlineExceeded)
	case errors.As(err, &te):
		// The connection is gone or broken: retire the session so that
		// the next call starts a new one.
		reason := "the connection failed: " + u.opts.Masker.Text(err.Error())
		if s.child != nil {
			s.child.Settle(err)
			reason = "the process " + s.child.Describe()
		}
		u.lost(s, reason)
		return zero, u.errorf("%s: %s", what, reason)
	}
	return zero, u.errorf("%s: %w", what, u.opts.Masker.Err(err))
}

// notified handles a notification from the upstream: a list_changed makes
// the catalog stale, so it is listed again and the hub told.
func (u *Upstream) notified(s *session, n mcp.JSONRPCNotification) {
	switch mcp.MCPMethod(n.Method) {
	case mcp.MethodNotificationToolsListChanged,
		mcp.MethodNotificationPromptsListChanged,
		mcp.MethodNotificationResourcesListChanged:
		s.invalidate()
		u.mu.Lock()
		if u.sess == s {
			u.refreshLocked(s)
		}
		u.mu.Unlock()
	case mcp.MethodNotificationSubscriptionsAcknowledged: // the hub's own listen stream's
	case mcp.MethodNotificationTasksStatus:
		u.taskStatus(n) // task.go: progress of a call the hub waits for, or the relay's
	default:
		if mcp.MCPMethod(n.Method) == mcp.MethodNotificationProgress {
			u.progressed(n) // task.go
		}
		if u.opts.OnNotification != nil {
			u.opts.OnNotification(u.spec.Name, n)
		}
	}
}

// refreshLocked lists the session's catalog in the background and then
// calls OnChange. u.mu must be held.
func (u *Upstream) refreshLocked(s *session) {
	if u.state == StateStopped {
		return
	}
	u.wg.Add(1)
	go func() {
		defer u.wg.Done()
		ctx, cancel := context.WithTimeout(u.ctx, u.Timeout())
		defer cancel()
		if _, err := u.catalog(ctx, s); err != nil && u.ctx.Err() == nil {
			u.opts.Logger.Warn(u.spec.Name+": could not list the catalog again", "service", u.spec.Name, "error", u.opts.Masker.Text(err.Error()))
		}
		if u.opts.OnChange != nil && u.ctx.Err() == nil {
			u.opts.OnChange(u.spec.Name)
		}
	}()
}

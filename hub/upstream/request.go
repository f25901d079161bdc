package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
	"github.com/chronicle-dev/chronicle/hub/wire"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Request sends one JSON-RPC request to the upstream as the hub's client
// sent it (params, _meta and all) and returns the raw result, so nothing the
// upstream answered is lost to a typed decode. caller is the hub's own value
// for whoever the request is made for: requests the upstream makes while
// this one is in flight are attributed to it.
//
// The request is bounded by the service's timeout, paused while the client
// answers a request the upstream made. When ctx ends first (the client
// cancelled), the upstream is sent notifications/cancelled with the
// request's own id, on every transport.
func (u *Upstream) Request(ctx context.Context, caller any, method string, params any) (json.RawMessage, error) {
	s, err := u.session(ctx)
	if err != nil {
		return nil, err
	}
	if s.modern != nil {
		// An upstream spoken to statelessly: on its session era when it
		// has one that offers what the request names, else statelessly,
		// as the hub's own client. The params are encoded once, here.
		body, err := wire.Encode(params)
		if err != nil {
			return nil, u.errorf("%s: %w", method, err)
		}
		if err := s.openSessionEra(ctx); err != nil || s.era.StatelessOnly(method, rpc.NameOf(body)) {
			return u.requestModern(ctx, s, method, body, nil)
		}
		params = body
	}
	return u.send(ctx, s, false, caller, method, params, nil)
}

// send sends one request on the session's transport, or with modern set on
// its stateless 2026-07-28 transport (where ending the request's stream is
// the cancellation, so no notifications/cancelled is sent). header holds
// HTTP headers of the request's own.
func (u *Upstream) send(ctx context.Context, s *session, modern bool, caller any, method string, params any, header map[string]string) (json.RawMessage, error) {
	tr := s.sessionTransport()
	if modern {
		tr = s.modern
	}
	id := rpc.NewID()
	timeout := u.Timeout()
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	fl := &rpc.Flight{Caller: caller}
	fl.Start(timeout, func() { cancel(errCallTimeout) })
	u.inflight.Track(id, fl)
	defer u.inflight.Untrack(id)

	req := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(id), Method: method, Params: params}
	if len(header) > 0 {
		req.Header = http.Header{}
		for k, v := range header {
			req.Header.Set(k, v)
		}
	}
	resp, err := tr.SendRequest(cctx, req)
	fl.Stop()
	if err == nil && resp.Error != nil {
		s.answered()
		return nil, &rpc.RPCError{Code: resp.Error.Code, Message: u.opts.Masker.Literal(resp.Error.Message), Data: resp.Error.Data}
	}
	if err == nil {
		s.answered()
		_ = u.loginError(nil)
		return resp.Result, nil
	}
	timedOut := errors.Is(context.Cause(cctx), errCallTimeout)
	if (ctx.Err() != nil || timedOut) && !modern {
		u.cancelRequest(s, id, ctx, timedOut)
	}
	var te *transport.Error
	switch why := u.ended(); {
	case why != "":
		return nil, u.errorf("%s: %s", method, why)
	case ctx.Err() != nil:
		return nil, u.errorf("%s: %w", method, ctx.Err())
	case timedOut:
		if s.timedOut() >= timeoutsBeforeRestart {
			u.lost(s, fmt.Sprintf("%d calls in a row timed out", timeoutsBeforeRestart))
		}
		return nil, u.errorf("%s: no answer within the %s timeout: %w", method, timeout, context.DeadlineExceeded)
	case errors.As(err, &te) || errors.Is(err, transport.ErrTransportClosed):
		reason := "the connection failed: " + u.opts.Masker.Text(err.Error())
		if s.child != nil {
			s.child.Settle(err)
			reason = "the process " + s.child.Describe()
		}
		u.lost(s, reason)
		return nil, u.errorf("%s: %s", method, reason)
	}
	// A token refused or too narrow (a step-up) shows in the status as
	// a login the service needs, and the error names the command.
	err = u.loginError(err)
	return nil, u.errorf("%s: %w", method, u.opts.Masker.Err(err))
}

// errCallTimeout is the cause of a request's end when its timeout passed.
var errCallTimeout = errors.New("call timeout")

// cancelRequest tells the upstream the client gave up on request id (MCP
// notifications/cancelled). mcp-go's client sends it only on non-HTTP
// transports and only for its own ids: the hub sends it itself, always.
func (u *Upstream) cancelRequest(s *session, id string, ctx context.Context, timedOut bool) {
	reason := "the client cancelled the request"
	if timedOut {
		reason = "no answer within the hub's timeout"
	}
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		reason = cause.Error()
	}
	tr := s.sessionTransport()
	if tr == nil {
		return
	}
	nctx, cancel := context.WithTimeout(u.ctx, closeGrace)
	defer cancel()
	_ = tr.SendNotification(nctx, mcp.JSONRPCNotification{
		JSONRPC: mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{
			Method: string(mcp.MethodNotificationCancelled),
			Params: mcp.NotificationParams{AdditionalFields: map[string]any{"requestId": id, "reason": reason}},
		},
	})
}

// serverRequest answers a request the upstream makes of its client. ping is
// answered by the hub; sampling, elicitation and roots go to the client of
// the one call in flight (roots/list outside any call is answered by the
// hub with the scope the upstream serves).
func (u *Upstream) serverRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	switch mcp.MCPMethod(req.Method) {
	case mcp.MethodPing:
		return transport.NewJSONRPCResultResponse(req.ID, json.RawMessage(`{}`)), nil
	case mcp.MethodSamplingCreateMessage:
		if u.spec.RefuseSampling {
			return nil, fmt.Errorf("the chronicle hub does not let %s ask for sampling (allow_sampling = false)", u.spec.Name)
		}
	case mcp.MethodElicitationCreate:
		if u.spec.RefuseElicitation {
			return nil, fmt.Errorf("the chronicle hub does not let %s ask the user for input (allow_elicitation = false)", u.spec.Name)
		}
	case mcp.MethodListRoots:
	default:
		return nil, fmt.Errorf("the chronicle hub does not pass %s on to clients", req.Method)
	}
	if u.opts.OnRequest == nil {
		return nil, fmt.Errorf("the chronicle hub has no client to ask for %s", req.Method)
	}
	params, err := json.Marshal(req.Params)
	if err != nil {
		return nil, err
	}
	f, n := u.inflight.Attributed()
	var caller any
	switch {
	case n == 1:
		caller = f.Caller
		f.Pause()
		defer f.Resume()
	case n == 0 && req.Method == string(mcp.MethodListRoots):
	case n == 0:
		return nil, fmt.Errorf("the chronicle hub cannot pass %s on: no client call to %s is in flight", req.Method, u.spec.Name)
	default:
		return nil, fmt.Errorf("the chronicle hub cannot tell which of %d clients with a call in flight %s is for; set sessions = \"per-client\" on service %s so that every request can be attributed", n, req.Method, u.spec.Name)
	}
	res, err := u.opts.OnRequest(ctx, u.spec.Name, caller, req.Method, params)
	if err != nil {
		return nil, err
	}
	return transport.NewJSONRPCResultResponse(req.ID, res), nil
}

// clientCapabilities are what the hub declares to an upstream: roots
// always, sampling and elicitation unless the service refuses them.
func (u *Upstream) clientCapabilities() mcp.ClientCapabilities {
	caps := mcp.ClientCapabilities{Roots: &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{}}
	if !u.spec.RefuseSampling {
		caps.Sampling = &mcp.SamplingCapability{}
	}
	if !u.spec.RefuseElicitation {
		caps.Elicitation = &mcp.ElicitationCapability{}
	}
	return caps
}

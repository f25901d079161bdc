package relay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/hub/relay/held"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/upstream"
	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
)

// A 2026-07-28 client's tools/call or prompts/get to a session-era
// upstream (decision 0230). The upstream may ask its client mid-call
// (elicitation, sampling, roots) and wait; the client holds no stream to be
// asked on. So the hub sends the request on the session and holds it
// (held.Call): while the upstream waits for an answer, the client's request
// is answered input_required with the upstream's question and a
// requestState of the hub's; the client's retry brings the answer, which
// the hub gives the upstream, and waits again — for the result, or the
// next question.

// crossEra serves one round of a 2026-07-28 client's request of method to
// the session-era upstream u: the first (it starts the call) or a retry
// (its requestState resumes the held call). caps are the client's
// capabilities: the upstream's questions reach it only where they say it
// can answer.
func (b poolBackend) crossEra(ctx context.Context, u *upstream.Upstream, c *Caller, method string, params any, name string, caps *mcp.ClientCapabilities) (json.RawMessage, error) {
	body, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	var p struct {
		Arguments      json.RawMessage            `json:"arguments"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		RequestState   string                     `json:"requestState"`
		Meta           struct {
			ProgressToken any `json:"progressToken"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, err
	}
	token := ""
	if p.Meta.ProgressToken != nil {
		token = fmt.Sprint(p.Meta.ProgressToken)
	}
	pass := b.ups.pass
	if p.RequestState != "" {
		// This round's progress route is in place before the answers let
		// the upstream go on: what it reports next comes to this round.
		unfollow := func() {}
		call, err := pass.Held.Resume(p.RequestState, binding(ctx, method, name, p.Arguments), p.InputResponses,
			func(call *held.Call) { unfollow = pass.followProgress(call.Token, token) })
		if err != nil {
			return nil, &rpc.Rejection{Err: &rpc.RPCError{Code: mcp.INVALID_PARAMS, Message: err.Error()}}
		}
		defer unfollow()
		return call.Wait(ctx)
	}
	sent := sessionEra(body)
	bind := func() string { return binding(ctx, method, name, p.Arguments) }
	call := pass.Held.Start(ctx, bind, u.Timeout(), func(hctx context.Context, call *held.Call) (json.RawMessage, error) {
		raw, err := u.Request(hctx, &Caller{Ctx: hctx, Session: c.Session, Via: c.Via, held: call, caps: caps}, method, sent)
		if why := context.Cause(hctx); errors.Is(why, held.ErrNotResumed) {
			// Nobody waits for this answer: the inspector says why.
			pass.Inspector.Note(c.Session, fmt.Sprintf("%s: %s of %s, held for a 2026-07-28 client, was cancelled: %v", u.Name(), method, name, why))
		}
		return raw, err
	})
	call.Token = token
	return call.Wait(ctx)
}

// sessionEra returns a 2026-07-28 request's params as a session-era
// upstream takes them: without the revision's envelope in _meta (its
// version, the client and its capabilities, the log level), which the
// session settled at initialize and which would tell an upstream that
// serves both eras that the request is of the stateless one.
func sessionEra(body json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	var meta map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil || json.Unmarshal(obj["_meta"], &meta) != nil {
		return body
	}
	for _, k := range []string{mcp.MetaKeyProtocolVersion, mcp.MetaKeyClientInfo, mcp.MetaKeyClientCapabilities, mcp.MetaKeyLogLevel} {
		delete(meta, k)
	}
	if len(meta) == 0 {
		delete(obj, "_meta")
	} else if b, err := json.Marshal(meta); err == nil {
		obj["_meta"] = b
	}
	if out, err := json.Marshal(obj); err == nil {
		return out
	}
	return body
}

// binding describes who may resume a held call: the endpoint and scope the
// request came to, the client as it names itself, and the request — its
// method, what it names and its arguments (a retry is the same request).
// A 2026-07-28 client has no session, and every client of the hub carries
// the same token: two clients that name themselves alike on one endpoint
// look alike to the hub, and a state handed to one resumes for the other
// only if it has the state, unused (decision 0230).
func binding(ctx context.Context, method, name string, args json.RawMessage) string {
	var client mcp.Implementation
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientInfo != nil {
		client = *info.ClientInfo
	}
	ep, _ := session.EndpointOf(ctx)
	h := sha256.New()
	for _, part := range []string{ep.Key(), client.Name, client.Version, method, name, string(args)} {
		fmt.Fprintf(h, "%d:%s;", len(part), part)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// askHeld puts an upstream's request to the client of a held call: at the
// client's next round, in the shape its revision embeds it, when the client
// declared it can answer it. Otherwise the upstream is answered as a
// client without the capability would be (roots: the caller's scope).
func (p *PassThrough) askHeld(ctx context.Context, service string, c *Caller, method string, params json.RawMessage) (json.RawMessage, error) {
	if !held.Declared(c.caps, method, params) {
		if mcp.MCPMethod(method) == mcp.MethodListRoots {
			return json.Marshal(mcp.ListRootsResult{Roots: p.sessionRoots(c)})
		}
		return nil, fmt.Errorf("the client of the call to %s did not declare it can answer %s", service, method)
	}
	req, err := held.Request(method, params)
	if err != nil {
		return nil, fmt.Errorf("%s asked %s with params the hub cannot read: %w", service, method, err)
	}
	p.recordForward(c.Session, method, json.RawMessage(params))
	res, err := c.held.Ask(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("the client of the call to %s did not answer %s: %w", service, method, err)
	}
	return res, nil
}

// followProgress routes the progress of a held call's upstream request,
// which carries the token of its first round (from), where this round's
// token (to) routes it: to the client of this round. The func returned
// ends that.
func (p *PassThrough) followProgress(from, to string) func() {
	r, ok := p.progress.Load(to)
	if from == "" || !ok {
		return func() {}
	}
	p.progress.Store(from, r)
	return func() { p.progress.Delete(from) }
}

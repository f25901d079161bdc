package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"time"

	"github.com/chronicle-dev/chronicle/hub/upstream/listen"
	"github.com/chronicle-dev/chronicle/hub/upstream/resolve"
	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// The 2026-07-28 revision (SEP-2575) is stateless: every request carries
// the protocol version, the client's identity and its capabilities in
// _meta, and a server that needs more input answers input_required with
// inputRequests and an opaque requestState (SEP-2322) instead of asking the
// client mid-call. The hub asks a Streamable HTTP upstream for it first
// (server/discover) and, where it is spoken, lists the upstream and sends
// every request statelessly; the session era's connection is opened only
// when a session-era client's request needs it (era.go, decision 0236).
// Stdio and HTTP+SSE upstreams are spoken to in the session era.

// modernVersion is the stateless revision.
const modernVersion = mcp.ProtocolVersion20260728

// discoverTimeout bounds the server/discover a Streamable HTTP upstream is
// sent first: an upstream that does not answer it in time is initialized
// in the session era.
const discoverTimeout = 5 * time.Second

// ErrNotModern is RequestModern's answer when the upstream does not speak
// the 2026-07-28 revision: the caller sends the request on the session.
var ErrNotModern = errors.New("the upstream does not speak the 2026-07-28 revision")

// streamable makes the transport of a Streamable HTTP upstream and says
// which revision to speak on it: modern is the transport too when the
// upstream answers server/discover with 2026-07-28 (the revision the hub
// asks first, as the specification's backwards compatibility asks of a
// client of both); nil when it does not, and tr is then a new transport
// that holds the session era's GET stream (mcp-go's client does not probe
// on a transport with that stream).
func (u *Upstream) streamable(ctx, sessCtx context.Context, rs *resolve.Resolution) (tr transport.Interface, modern *transport.StreamableHTTP, ep endpoint, err error) {
	tr, ep, err = u.remote(rs, false)
	if err != nil {
		return nil, nil, ep, err
	}
	mt := tr.(*transport.StreamableHTTP) // remote makes one for an http service
	if err := mt.Start(sessCtx); err != nil {
		return nil, nil, ep, err
	}
	if ok, _ := u.discover(ctx, mt); ok {
		return mt, mt, ep, nil
	}
	_ = mt.Close()
	tr, ep, err = u.remote(rs, true)
	return tr, nil, ep, err
}

// discover sends server/discover on mt in the 2026-07-28 revision, bounded
// by discoverTimeout, and reports whether the upstream speaks it, or why
// not (rpc.Discover).
func (u *Upstream) discover(ctx context.Context, mt *transport.StreamableHTTP) (bool, error) {
	mt.SetProtocolVersion(modernVersion)
	ctx, cancel := context.WithTimeout(ctx, discoverTimeout)
	defer cancel()
	return rpc.Discover(ctx, mt, modernVersion, u.modernMeta(nil))
}

// useModern keeps the session's transport as the stateless one: progress
// and log messages of a request come on its own response stream, and the
// revision's list changes on a listen stream held while sessCtx lasts
// (decision 0206).
func (u *Upstream) useModern(sessCtx context.Context, s *session, mt *transport.StreamableHTTP, ep endpoint) {
	s.modern = mt
	u.wg.Add(1) // dial runs in start, which the wait group already counts
	go func() {
		defer u.wg.Done()
		listen.Stream{URL: ep.url, Header: ep.headers, Filter: listen.Filter(s.client.GetServerCapabilities()), Meta: u.modernMeta(nil),
			Notify: func(n mcp.JSONRPCNotification) { u.notified(s, n) },
			Logger: u.opts.Logger.With("service", u.spec.Name), Mask: u.opts.Masker.Text}.Hold(sessCtx)
	}()
}

// modernMeta is the _meta every 2026-07-28 request carries: the revision,
// the hub as the client, and caps — the capabilities of the client the
// request is made for (nil: the hub's own) — less what the service may not
// ask for.
func (u *Upstream) modernMeta(caps *mcp.ClientCapabilities) map[string]any {
	c := u.clientCapabilities()
	if caps != nil {
		c = *caps
		if u.spec.RefuseSampling {
			c.Sampling = nil
		}
		if u.spec.RefuseElicitation {
			c.Elicitation = nil
		}
		c.Extensions = rpc.WithoutTasks(c.Extensions)
	}
	return map[string]any{
		mcp.MetaKeyProtocolVersion:    modernVersion,
		mcp.MetaKeyClientInfo:         u.opts.ClientInfo,
		mcp.MetaKeyClientCapabilities: c,
	}
}

// RequestModern sends one request as Request does, but statelessly in the
// 2026-07-28 revision, with the _meta that revision requires added to the
// params' own and caps as the client's capabilities: the raw result may be
// input_required, and a retry's inputResponses and requestState reach the
// upstream as the client sent them. It answers ErrNotModern when the
// upstream does not speak that revision.
func (u *Upstream) RequestModern(ctx context.Context, method string, params any, caps *mcp.ClientCapabilities) (json.RawMessage, error) {
	s, err := u.session(ctx)
	if err != nil {
		return nil, err
	}
	if s.modern == nil {
		return nil, ErrNotModern
	}
	return u.requestModern(ctx, s, method, params, caps)
}

func (u *Upstream) requestModern(ctx context.Context, s *session, method string, params any, caps *mcp.ClientCapabilities) (json.RawMessage, error) {
	body, err := rpc.WithMeta(params, u.modernMeta(caps))
	if err != nil {
		return nil, u.errorf("%s: %w", method, err)
	}
	// The headers the revision requires (Mcp-Method, Mcp-Name) and the
	// Mcp-Param-* ones a tool's x-mcp-header annotations ask for (SEP-2243).
	header := mcp.StandardHeaders(modernVersion, mcp.MCPMethod(method), body)
	if mcp.MCPMethod(method) == mcp.MethodToolsCall {
		if tool := s.tool(body); tool != nil {
			maps.Copy(header, mcp.GenerateParamHeaders(tool, body))
		}
	}
	// No caller: the upstream cannot ask anything of a stateless
	// request's client mid-call, and a caller in flight would make the
	// session's own requests ambiguous (attributed).
	raw, err := u.send(ctx, s, true, nil, method, body, header)
	var refused *rpc.RPCError
	if errors.As(err, &refused) {
		return nil, &rpc.Rejection{Err: refused}
	}
	return raw, err
}

// ModernOnly reports whether a request of method for name goes in the
// 2026-07-28 revision whatever its client speaks: the upstream is spoken to
// statelessly and its session era was refused or does not offer name
// (era.go).
func (u *Upstream) ModernOnly(method, name string) bool {
	u.mu.Lock()
	s := u.sess
	u.mu.Unlock()
	return s != nil && s.modern != nil && s.era.StatelessOnly(method, name)
}

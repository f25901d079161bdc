package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/chronicle-dev/chronicle/hub/upstream/listen"
	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// The 2026-07-28 revision (SEP-2575) is stateless: every request carries
// the protocol version, the client's identity and its capabilities in
// _meta, and a server that needs more input answers input_required with
// inputRequests and an opaque requestState (SEP-2322) instead of asking the
// client mid-call. The hub keeps every upstream on a session-era revision
// (dial.go), and talks to an HTTP upstream that also speaks 2026-07-28 a
// second way, statelessly, for the requests of 2026-07-28 clients: only
// then does the upstream answer input_required, and only then does it
// offer what it offers that era alone (decision 0195).

// modernVersion is the stateless revision.
const modernVersion = mcp.ProtocolVersion20260728

// probeTimeout bounds the server/discover probe of a new session: an
// upstream that does not answer it in time is used as a session-era one.
const probeTimeout = 5 * time.Second

// ErrNotModern is RequestModern's answer when the upstream does not speak
// the 2026-07-28 revision: the caller sends the request on the session.
var ErrNotModern = errors.New("the upstream does not speak the 2026-07-28 revision")

// probeModern asks an HTTP upstream, on a transport of its own, whether it
// speaks the 2026-07-28 revision (server/discover), and returns the
// transport if it does. Anything else — an error, a timeout, another
// revision — is nil: the upstream is used as a session-era one. It runs
// alongside the session's handshake, so that it costs a new session no
// time of its own.
func (u *Upstream) probeModern(ctx, sessCtx context.Context, ep endpoint) *transport.StreamableHTTP {
	mt, err := transport.NewStreamableHTTP(ep.url,
		transport.WithHTTPHeaders(ep.headers),
		transport.WithHTTPLogger(u.opts.Logger.With("service", u.spec.Name)))
	if err != nil {
		return nil
	}
	if err := mt.Start(sessCtx); err != nil {
		return nil
	}
	mt.SetProtocolVersion(modernVersion)
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	resp, err := mt.SendRequest(pctx, rpc.NewModernRequest(string(mcp.MethodServerDiscover), map[string]any{"_meta": u.modernMeta(nil)}))
	var found struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	if err != nil || resp.Error != nil || json.Unmarshal(resp.Result, &found) != nil ||
		!slices.Contains(found.SupportedVersions, modernVersion) {
		_ = mt.Close()
		return nil
	}
	return mt
}

// useModern keeps a probed transport on the session; progress and log
// messages of a stateless request come on its own response stream, and
// the revision's list changes on a listen stream held while sessCtx lasts
// (decision 0206).
func (u *Upstream) useModern(sessCtx context.Context, s *session, mt *transport.StreamableHTTP, ep endpoint) {
	if mt == nil {
		return
	}
	mt.SetNotificationHandler(func(n mcp.JSONRPCNotification) { u.notified(s, n) })
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
	body, err := rpc.WithMeta(params, u.modernMeta(caps))
	if err != nil {
		return nil, u.errorf("%s: %w", method, err)
	}
	header := map[string]string{rpc.MethodHeader: method}
	var named struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	if json.Unmarshal(body, &named) == nil {
		switch {
		case named.Name != "":
			header[rpc.NameHeader] = named.Name
		case named.URI != "":
			header[rpc.NameHeader] = named.URI
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

// ModernOnly reports whether what a request of method names (a tool for
// tools/call, a prompt for prompts/get) is one only the upstream's
// 2026-07-28 revision offers, as the upstream was last listed.
func (u *Upstream) ModernOnly(method, name string) bool {
	u.mu.Lock()
	s := u.sess
	u.mu.Unlock()
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last == nil {
		return false
	}
	switch mcp.MCPMethod(method) {
	case mcp.MethodToolsCall:
		return s.last.ModernOnly[name]
	case mcp.MethodPromptsGet:
		return s.last.ModernOnlyPrompts[name]
	}
	return false
}

// listModern adds to c the tools and prompts the upstream lists in the
// 2026-07-28 revision but not on the session. A failure leaves c as the
// session listed it: the session's catalog is the one every client can use.
func (u *Upstream) listModern(ctx context.Context, s *session, c *Catalog) {
	meta := u.modernMeta(nil)
	tools, err := rpc.ListTools(ctx, s.modern, meta)
	if err != nil {
		u.opts.Logger.Debug(u.spec.Name+": could not list tools in the 2026-07-28 revision", "service", u.spec.Name, "error", u.opts.Masker.Text(err.Error()))
		return
	}
	have := make(map[string]bool, len(c.Tools))
	for _, t := range c.Tools {
		have[t.Name] = true
	}
	for _, t := range tools {
		if !have[t.Name] {
			if c.ModernOnly == nil {
				c.ModernOnly = map[string]bool{}
			}
			c.ModernOnly[t.Name] = true
			c.Tools = append(c.Tools, t)
		}
	}
	if s.client.GetServerCapabilities().Prompts == nil {
		return
	}
	resp, err := s.modern.SendRequest(ctx, rpc.NewModernRequest(string(mcp.MethodPromptsList), map[string]any{"_meta": meta}))
	var page mcp.ListPromptsResult
	if err != nil || resp.Error != nil || json.Unmarshal(resp.Result, &page) != nil {
		return
	}
	have = make(map[string]bool, len(c.Prompts))
	for _, p := range c.Prompts {
		have[p.Name] = true
	}
	for _, p := range page.Prompts {
		if !have[p.Name] {
			if c.ModernOnlyPrompts == nil {
				c.ModernOnlyPrompts = map[string]bool{}
			}
			c.ModernOnlyPrompts[p.Name] = true
			c.Prompts = append(c.Prompts, p)
		}
	}
}

package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

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

// The HTTP headers a 2026-07-28 request mirrors its method and the name
// it calls in (SEP-2243); servers refuse a request without the first.
const (
	methodHeader = "Mcp-Method"
	nameHeader   = "Mcp-Name"
)

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
	resp, err := mt.SendRequest(pctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId("chronicle-" + strconv.FormatInt(rawID.Add(1), 10)),
		Method:  string(mcp.MethodServerDiscover),
		Params:  map[string]any{"_meta": u.modernMeta(nil)},
		Header:  http.Header{methodHeader: {string(mcp.MethodServerDiscover)}},
	})
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
// messages of a stateless request come on its own response stream.
func (u *Upstream) useModern(s *session, mt *transport.StreamableHTTP) {
	if mt == nil {
		return
	}
	mt.SetNotificationHandler(func(n mcp.JSONRPCNotification) { u.notified(s, n) })
	s.modern = mt
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
		c.Extensions = withoutTasks(c.Extensions)
	}
	return map[string]any{
		mcp.MetaKeyProtocolVersion:    modernVersion,
		mcp.MetaKeyClientInfo:         u.opts.ClientInfo,
		mcp.MetaKeyClientCapabilities: c,
	}
}

// tasksExtension is the 2026-07-28 revision's tasks extension (SEP-2663).
const tasksExtension = "io.modelcontextprotocol/tasks"

// withoutTasks returns a client's extensions less the tasks extension: the
// hub does not pass tasks through to its clients (decision 0210), so an
// upstream must not answer a call of theirs with a task they could not
// reach through the hub; it runs the call synchronously instead, as it
// does for a client that did not declare the extension.
func withoutTasks(ext map[string]any) map[string]any {
	if _, ok := ext[tasksExtension]; !ok {
		return ext
	}
	out := make(map[string]any, len(ext)-1)
	for k, v := range ext {
		if k != tasksExtension {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
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
	body, err := withMeta(params, u.modernMeta(caps))
	if err != nil {
		return nil, u.errorf("%s: %w", method, err)
	}
	header := map[string]string{methodHeader: method}
	var named struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	if json.Unmarshal(body, &named) == nil {
		switch {
		case named.Name != "":
			header[nameHeader] = named.Name
		case named.URI != "":
			header[nameHeader] = named.URI
		}
	}
	// No caller: the upstream cannot ask anything of a stateless
	// request's client mid-call, and a caller in flight would make the
	// session's own requests ambiguous (attributed).
	raw, err := u.send(ctx, s, true, nil, method, body, header)
	var rpc *RPCError
	if errors.As(err, &rpc) {
		return nil, &Rejection{Err: rpc}
	}
	return raw, err
}

// A Rejection is the JSON-RPC error an upstream answered a 2026-07-28
// request with: in that revision an error is how a server refuses, for
// example, a requestState that fails its integrity check, so the hub
// answers its client with an error too.
type Rejection struct{ Err *RPCError }

func (r *Rejection) Error() string { return r.Err.Error() }
func (r *Rejection) Unwrap() error { return r.Err }

// withMeta returns params encoded with meta's members added to its _meta
// (the request's own members, such as a progress token, are kept).
func withMeta(params any, meta map[string]any) (json.RawMessage, error) {
	obj, err := paramsObject(params)
	if err != nil {
		return nil, err
	}
	m := map[string]json.RawMessage{}
	if raw, ok := obj["_meta"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("_meta is not an object: %w", err)
		}
	}
	for k, v := range meta {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		m[k] = b
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	obj["_meta"] = b
	return json.Marshal(obj)
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
	tools, err := listTools(ctx, s.modern, meta)
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
	resp, err := s.modern.SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId("chronicle-" + strconv.FormatInt(rawID.Add(1), 10)),
		Method:  string(mcp.MethodPromptsList),
		Params:  map[string]any{"_meta": meta},
		Header:  http.Header{methodHeader: {string(mcp.MethodPromptsList)}},
	})
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

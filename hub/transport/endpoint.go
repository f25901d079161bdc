package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The router serves every MCP endpoint of the hub on one listener:
//
//	/mcp                      Streamable HTTP, every revision (2026-07-28 stateless on the same path)
//	/mcp?root=DIR             the same, scoped to the project folder DIR
//	/mcp/profile/NAME[?root=] a profile's endpoint
//	/mcp/service/NAME[?root=] one service under its own names (rewrite.go)
//	/sse + /message           HTTP+SSE for 2024-11-05 clients
//	/health, /api/*           liveness and the management API
//	/, /console/FILE          the web console (hub/console)
//
// A session is bound to the endpoint it was made on: its id is refused on
// any other.

// serveEndpoint applies the rules of one MCP endpoint in front of mcp-go's
// Streamable HTTP server: the scope of the URL or header, the session's
// binding to its endpoint, GET/DELETE without or with an unknown session,
// protocol versions answered with JSON-RPC errors, and batches per revision.
func (h *Transport) serveEndpoint(next http.Handler, path string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ep := session.Endpoint{Path: path}
		if name := r.PathValue("name"); name != "" {
			if !h.core.HasProfile(name) {
				http.Error(w, "no profile named "+name+" is defined", http.StatusNotFound)
				return
			}
			ep.Path = "/mcp/profile/" + name
		}
		service := r.PathValue("service")
		if service != "" {
			if !h.core.HasService(service) {
				http.Error(w, "no service named "+service+" is served"+h.core.ServiceNames(), http.StatusNotFound)
				return
			}
			ep.Path = catalog.ServicePrefix + service
		}
		root := r.URL.Query().Get("root")
		if root == "" {
			root = r.Header.Get(RootHeader)
		}
		if root != "" {
			if ep.Root = wire.RootFromURI(root); ep.Root == "" {
				http.Error(w, "root must be an absolute folder, not "+root, http.StatusBadRequest)
				return
			}
		}
		version := r.Header.Get("MCP-Protocol-Version")
		modern := mcp.IsModernProtocol(version)
		// A 2026-07-28 request has no session (mcp-go ignores the header):
		// an id it carries names nothing, and nothing is kept under it.
		var sid string
		var cs *session.Session
		if !modern {
			sid = r.Header.Get(server.HeaderKeySessionID)
		}
		if sid != "" {
			if cs = h.core.Sessions.Get(sid); cs == nil {
				writeRPCError(w, http.StatusNotFound, nil, mcp.INVALID_REQUEST, "unknown session "+sid)
				return
			}
			if bound := cs.EndpointKey(); bound != "" && bound != ep.Key() {
				writeRPCError(w, http.StatusNotFound, nil, mcp.INVALID_REQUEST, "session "+sid+" belongs to another endpoint")
				return
			}
			cs.Touch()
		}
		if (r.Method == http.MethodGet || r.Method == http.MethodDelete) && !modern && sid == "" {
			http.Error(w, "a "+r.Method+" needs an Mcp-Session-Id header", http.StatusBadRequest)
			return
		}
		if r.Method == http.MethodGet && cs != nil && !awaitRegistered(r.Context(), cs) {
			writeRPCError(w, http.StatusNotFound, nil, mcp.INVALID_REQUEST, "session "+sid+" ended")
			return
		}
		if last := r.Header.Get("Last-Event-ID"); r.Method == http.MethodGet && cs != nil && last != "" && h.serveResume(w, r, sid, last) {
			return
		}
		if version != "" && !wire.Supported(version) && r.Method != http.MethodPost {
			writeUnsupportedVersion(w, nil, version)
			return
		}
		if modern && r.Method == http.MethodPost {
			h.core.CountStateless(ep.Key())
		}
		ctx := session.WithEndpoint(r.Context(), ep)
		if ep.Root != "" {
			ctx = session.WithRoot(ctx, ep.Root)
			if cs != nil {
				cs.SetRoot(ep.Root)
			}
		}
		if r.Method != http.MethodPost || r.Body == nil {
			o := h.outbound(w, sid)
			if r.Method == http.MethodGet && cs != nil {
				// mcp-go attaches the stream before it answers 200.
				o.opened = func() { h.core.StreamOpen(cs) }
				o.carried = cs.Carried // the session is not idle (Registry.Expired)
			}
			next.ServeHTTP(o, r.WithContext(ctx))
			o.detach()
			return
		}
		buf, err := readBody(r.Body)
		defer releaseBody(buf)
		body := buf.Bytes()
		if err != nil {
			wire.BodyError(w, err)
			return
		}
		if version != "" && !wire.Supported(version) {
			// The error answers the request: it carries its id.
			writeUnsupportedVersion(w, requestID(body), version)
			return
		}
		if trimmed := bytes.TrimSpace(body); len(trimmed) > 0 && trimmed[0] == '[' {
			h.serveBatch(w, r.WithContext(ctx), next, trimmed, version)
			return
		}
		if service != "" {
			body = exposeRequest(r, service, body)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		m := wire.Peek(body)
		if sid == "" && !modern && m.Is(mcp.MethodInitialize) {
			release, msg := h.core.MakeRoom()
			if msg != "" {
				writeRPCError(w, http.StatusServiceUnavailable, json.RawMessage(m.ID), mcp.INTERNAL_ERROR, msg)
				return
			}
			defer release() // the initialize is answered: its session counts itself
		}
		after := func() {}
		if cs != nil {
			// The request is in flight until its handler returns: its
			// response has gone then, or never will.
			if h.core.Note(cs, m) {
				id := bytes.Clone(m.ID) // the body's buffer goes back to the pool
				after = func() { cs.Answered(id) }
			}
		}
		if cs != nil && h.core.Task != nil && isTaskRequest(m) {
			h.serveTask(ctx, w, cs, m, body)
			return
		}
		if modern && h.core.StatelessTask != nil && isStatelessTaskRequest(m) {
			h.serveStatelessTask(ctx, w, r.Header, m, body)
			return
		}
		via := next
		if modern && m.Is(mcp.MethodSubscriptionsListen) {
			// A listen stream is told of every list change (hub/relay's
			// announce.go), by the server that serves listen streams.
			h.core.Listening(1)
			defer h.core.Listening(-1)
			var cancel context.CancelFunc
			ctx, cancel = context.WithCancel(ctx)
			defer cancel()
			defer context.AfterFunc(h.listening, cancel)()
			h.mu.Lock()
			if h.listen != nil {
				via = h.listen
			}
			h.mu.Unlock()
		}
		if session.RootOf(ctx) == "" {
			if root := m.InitializeRoot(); root != "" {
				ctx = session.WithRoot(ctx, root)
			}
		}
		st := h.streamFor(r, m, sid, cs)
		if st != nil && h.serveCall(ctx, w, r, cs, m, st, after) {
			return
		}
		// What mcp-go's server reads and a call the hub serves does not: the
		// called tool (the policy filter's, callsOf) and the Reply the call
		// path leaves an error of its own in (reply.go; only these reach a service).
		if name := m.CalledTool(); name != "" {
			ctx = session.WithCalling(ctx, name)
		}
		if len(m.ID) > 0 && (m.Is(mcp.MethodToolsCall) || m.Is(mcp.MethodPromptsGet) || m.Is(mcp.MethodResourcesRead)) {
			ctx = session.WithReply(ctx, new(session.Reply))
		}
		if st != nil {
			if st.resumable {
				// mcp-go reads the body on its own goroutine, after this
				// handler gave the buffer back.
				r.Body = io.NopCloser(bytes.NewReader(bytes.Clone(body)))
			}
			h.serveStream(next, w, r.WithContext(ctx), st, after)
			return
		}
		defer after()
		h.serveOutbound(via, w, r.WithContext(ctx), sid)
	})
}

// streamFor returns the stream of the hub's that serves a request (a
// message with an id and a method, whose client takes an SSE response), or
// nil: initialize (no session yet) and a 2026-07-28 subscriptions/listen
// (a stream of its own) are mcp-go's. It is resumable in the session era.
func (h *Transport) streamFor(r *http.Request, m wire.Message, sid string, cs *session.Session) *requestStream {
	if len(m.ID) == 0 || len(m.Method) == 0 || m.Is(mcp.MethodInitialize) || m.Is(mcp.MethodSubscriptionsListen) || !accepts(r, "text/event-stream") {
		return nil
	}
	return h.newStream(sid, m.ID, sid != "" && cs != nil)
}

// Request bodies are read into pooled buffers: a body is only read while
// its request is served (mcp-go reads its own copy, and what the hub peeks
// at it copies).
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBody is the largest buffer put back for the next request.
const maxPooledBody = 1 << 20

func readBody(body io.Reader) (*bytes.Buffer, error) {
	buf := bodies.Get().(*bytes.Buffer)
	buf.Reset()
	_, err := buf.ReadFrom(body)
	return buf, err
}

func releaseBody(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooledBody {
		bodies.Put(buf)
	}
}

// writeRPCError answers with a JSON-RPC error where a body is expected.
func writeRPCError(w http.ResponseWriter, status int, id any, code int, msg string) {
	writeRPCErrorData(w, status, id, code, msg, nil)
}

// writeRPCErrorData is writeRPCError with the error's data member.
func writeRPCErrorData(w http.ResponseWriter, status int, id any, code int, msg string, data any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(mcp.JSONRPCError{
		JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(id),
		Error: mcp.NewJSONRPCErrorDetails(code, msg, data),
	})
}

// writeUnsupportedVersion refuses a protocol revision the hub does not
// speak as 2026-07-28 lays it out: UnsupportedProtocolVersion (-32022)
// with the supported revisions and the requested one in its data, and the
// request's id (nil for a GET or DELETE, which have none).
func writeUnsupportedVersion(w http.ResponseWriter, id any, version string) {
	writeRPCErrorData(w, http.StatusBadRequest, id, mcp.UNSUPPORTED_PROTOCOL_VERSION,
		"unsupported MCP-Protocol-Version "+version+"; supported: "+strings.Join(wire.SupportedVersions, ", "),
		mcp.UnsupportedProtocolVersionData{Supported: wire.SupportedVersions, Requested: version})
}

// requestID returns the id of a single JSON-RPC request as it was sent, or
// nil when the body holds none (a notification, a batch, not JSON).
func requestID(body []byte) any {
	if m := wire.Peek(body); len(m.ID) > 0 && json.Valid(m.ID) {
		return json.RawMessage(m.ID)
	}
	return nil
}

// awaitRegistered holds a session's standalone GET until mcp-go registered
// the session (Session.Settled): mcp-go answers initialize before it
// registers the session, and a GET that reaches it in between makes a
// second session object under the same id (decision 0200). It reports
// false when the session ended first, or the client gave up.
func awaitRegistered(ctx context.Context, cs *session.Session) bool {
	select {
	case <-cs.Settled():
		return cs.ClientSession() != nil
	case <-ctx.Done():
		return false
	}
}

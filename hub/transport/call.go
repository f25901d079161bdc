package transport

import (
	"context"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// serveCall serves a session-era client's tools/call on the hub's
// resumable stream st in place of mcp-go's Streamable HTTP server when the
// call path takes it (Core.Call, decision 0241), and reports whether it
// did; after runs once the answer is on the stream. ctx holds what the
// transport learnt of r (where it arrived, its scope).
//
// It is served with a context that ends with the hub rather than the
// connection, its progress on st, and its answer written into st as mcp-go
// writes a JSON body (st's last event, through the session's outbound
// filter; a JSON body when nothing came before it, decision 0246). What
// mcp-go's handlePost would add, the call does not need: the session's
// notifications unrelated to the call (logs, list changes) go on its
// standalone stream, or on the next response mcp-go streams; a sampling
// request goes on the standalone stream either way; an elicitation would go
// on the call's stream, so a client that offered elicitation and has no
// standalone stream open stays with mcp-go (Session.NeedsRequestStream); and
// the session's activity is the registry's (Registry.Expired), not mcp-go's.
// The call runs on the connection's goroutine (decision 0248), unless its
// service may end the call's stream before the answer (detach,
// Backend.Polls): the client's connection must then be able to end while
// the call goes on (serveResumable).
func (h *Transport) serveCall(ctx context.Context, w http.ResponseWriter, r *http.Request, cs *session.Session, m wire.Message, st *requestStream, after func()) bool {
	if h.core.Call == nil || !st.resumable || !m.Is(mcp.MethodToolsCall) || cs.NeedsRequestStream() {
		return false
	}
	answer, detach := h.core.Call(session.WithStream(session.Carry(h.core.Context, ctx), st), cs, m)
	if answer == nil {
		return false
	}
	st.plain = accepts(r, "application/json")
	serve := func() {
		b, err := session.Answer(st.id, answer)
		if err == nil {
			st.Header().Set("Content-Type", "application/json")
			_, _ = st.Write(b)
		}
	}
	h.serveResumable(w, r, st, serve, after, detach)
	return true
}

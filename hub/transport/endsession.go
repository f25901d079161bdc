package transport

import (
	"net/http"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/mark3labs/mcp-go/server"
)

// EndSession ends a Streamable HTTP session as a DELETE from its client
// would, so that mcp-go lets go of it too (and its unregistration hook
// drops the rest); a pending id, which mcp-go has not registered, just
// stops being valid.
func (h *Transport) EndSession(cs *session.Session) {
	h.mu.Lock()
	mcpHTTP := h.mcpHTTP
	h.mu.Unlock()
	if cs.ClientSession() == nil || mcpHTTP == nil {
		h.core.Sessions.Remove(cs.ID())
		return
	}
	req, err := http.NewRequestWithContext(h.core.Context, http.MethodDelete, "/mcp", nil)
	if err != nil {
		return
	}
	req.Header.Set(server.HeaderKeySessionID, cs.ID())
	mcpHTTP.ServeHTTP(discardResponse{header: http.Header{}}, req)
	h.core.Sessions.Remove(cs.ID()) // had mcp-go refused, the id still ends
}

// A discardResponse is the response of a request the hub makes of mcp-go
// itself (EndSession).
type discardResponse struct{ header http.Header }

func (d discardResponse) Header() http.Header         { return d.header }
func (d discardResponse) Write(b []byte) (int, error) { return len(b), nil }
func (d discardResponse) WriteHeader(int)             {}

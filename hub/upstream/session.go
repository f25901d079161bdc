package upstream

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/chronicle-dev/chronicle/hub/upstream/era"
	"github.com/chronicle-dev/chronicle/hub/upstream/proc"
	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// closeGrace is how long a child gets to exit after its stdin is closed and
// it is sent SIGTERM, and how long a remote session gets to say goodbye.
const closeGrace = 2 * time.Second

// A session is one live connection to an upstream: an initialized client,
// and for a stdio upstream the child it talks to. A restart makes a new
// session; the Upstream outlives them.
type session struct {
	client *client.Client
	child  *proc.Child // nil for a remote upstream
	// modern is the client's transport when the upstream answered
	// server/discover with the 2026-07-28 revision: every request then
	// goes statelessly (modern.go); nil for a session-era upstream.
	modern *transport.StreamableHTTP
	// era is the session-era connection of an upstream spoken to
	// statelessly, opened on first need (era.go).
	era     era.Conn
	started time.Time
	cancel  context.CancelFunc // ends the transport's background streams

	// listing lets one caller list the catalog at a time.
	listing chan struct{}

	mu       sync.Mutex
	catalog  *Catalog // nil until listed, and again after list_changed
	last     *Catalog // the last listed, even if stale, for the status
	gen      int      // bumped by every invalidation
	timeouts int      // calls in a row that timed out

	closeOnce sync.Once
}

func newSession(cancel context.CancelFunc) *session {
	return &session{cancel: cancel, started: time.Now(), listing: make(chan struct{}, 1)}
}

// cached returns the catalog if it is known, and the generation it belongs to.
func (s *session) cached() (*Catalog, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.catalog, s.gen
}

// store keeps a freshly listed catalog unless it went stale while listing.
func (s *session) store(c *Catalog, gen int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen == gen {
		s.catalog = c
	}
	s.last = c
}

// invalidate forgets the catalog after the upstream said it changed.
func (s *session) invalidate() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catalog = nil
	s.gen++
}

// timedOut counts a call that timed out and returns how many in a row have.
func (s *session) timedOut() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.timeouts++
	return s.timeouts
}

func (s *session) answered() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.timeouts = 0
}

// tool returns the tool a tools/call's params name, as last listed.
func (s *session) tool(params json.RawMessage) *mcp.Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last == nil {
		return nil
	}
	return rpc.FindTool(s.last.Tools, rpc.NameOf(params))
}

// toolCount returns how many tools the session last listed.
func (s *session) toolCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last == nil {
		return 0
	}
	return len(s.last.Tools)
}

func (s *session) pid() int {
	if s == nil || s.child == nil {
		return 0
	}
	return s.child.PID
}

// close ends the session: the client is closed without waiting longer than
// closeGrace for a remote peer, and a child is stopped and reaped.
func (s *session) close() {
	s.closeOnce.Do(func() {
		if s.client != nil {
			closed := make(chan struct{})
			go func() { _ = s.client.Close(); s.era.Close(); close(closed) }()
			select {
			case <-closed:
			case <-time.After(closeGrace):
			}
		}
		s.cancel()
		if s.child != nil {
			s.child.Stop(closeGrace)
		}
	})
}

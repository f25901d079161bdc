package hub

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// What the hub knows about one client session is one clientSession, and
// every clientSession is in one registry, clientSessions, for exactly as
// long as the transport's session lives: mcp-go's session registration hook
// puts it there and its unregistration hook (DELETE, the idle sweeper, the
// end of an SSE or stdio stream) takes it out, with everything it holds.
//
// Nothing a client merely names enters the registry. An Mcp-Session-Id, an
// SSE sessionId or a request id is looked up, never added: only ids the hub
// generated (Generate, as mcp-go's SessionIdManager) and sessions mcp-go
// registered have an entry, and a 2026-07-28 request has no session at all.
//
// Streamable HTTP registers a session after it has answered its initialize,
// so the client may post its next message first: an id the hub generated
// waits as pending until mcp-go registers it, or terminates it (the idle
// sweeper ends an initialize whose client went away).

// maxInFlight bounds the requests a session has in flight that the hub
// tracks; beyond it a request is served untracked (a cancel of it cannot
// drop its response).
const maxInFlight = 4096

// A clientSession is what the hub keeps about one client session: where it
// was made and the folder it works in, what it listed (the outbound filter),
// the requests it has in flight (tools/call of stdio, whose requests carry
// no context of their own, and the ids a cancel may name), and the state of
// its roots handshake.
type clientSession struct {
	id string

	mu        sync.Mutex
	made      time.Time            // when its id was made or the session registered
	lastSeen  time.Time            // when the client last sent a message with its id
	used      bool                 // the client sent a message with its id since initialize
	started   time.Time            // when mcp-go registered it; zero while pending
	transport server.ClientSession // mcp-go's session; nil while pending
	endpoint  string               // key of the endpoint it was made on; "" for stdio
	root      string               // the folder it works in, "" for the hub's default
	seen      map[string]string    // list kind → hash of the list it last got
	inFlight  map[string]inFlight  // request id as sent (raw JSON) → the request
	roots     rootsHandshake
}

// An inFlight request is one the client sent and has not been answered.
type inFlight struct {
	tool      string // the tool a tools/call names, else ""
	cancelled bool   // the client sent notifications/cancelled for it
}

// A rootsHandshake holds what must all be true before the hub asks a client
// for its roots: it offered them in initialize, it sent
// notifications/initialized (MCP: no request before that), and mcp-go has
// registered the session (the stream the request goes out on).
type rootsHandshake struct {
	offered, initialized, asked bool
}

func newClientSession(id string) *clientSession {
	now := time.Now()
	return &clientSession{id: id, made: now, lastSeen: now, seen: map[string]string{}, inFlight: map[string]inFlight{}}
}

// clientSessions is the registry. It is also mcp-go's SessionIdManager for
// Streamable HTTP, so that an id is valid exactly while it has an entry.
type clientSessions struct {
	mu      sync.RWMutex
	live    map[string]*clientSession // registered by mcp-go, until unregistered
	pending map[string]*clientSession // generated for an initialize, not registered yet
}

func newClientSessions() *clientSessions {
	return &clientSessions{live: map[string]*clientSession{}, pending: map[string]*clientSession{}}
}

// generatedPrefix begins every id Generate makes (and no id mcp-go makes
// for HTTP+SSE or stdio).
const generatedPrefix = "mcp-session-"

// Generate makes the id of a new Streamable HTTP session (SessionIdManager).
func (s *clientSessions) Generate() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	id := generatedPrefix + hex.EncodeToString(b)
	s.mu.Lock()
	s.pending[id] = newClientSession(id)
	s.mu.Unlock()
	return id
}

// Validate accepts the ids of sessions that have an entry (SessionIdManager).
func (s *clientSessions) Validate(id string) (bool, error) {
	if s.get(id) == nil {
		return false, errors.New("unknown session " + id)
	}
	return false, nil
}

// Terminate ends a session's id at once (SessionIdManager); mcp-go
// unregisters the session right after.
func (s *clientSessions) Terminate(id string) (bool, error) {
	if s.remove(id) == nil {
		return false, errors.New("unknown session " + id)
	}
	return false, nil
}

// get returns the session with id, live or pending, or nil.
func (s *clientSessions) get(id string) *clientSession {
	if id == "" {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if cs := s.live[id]; cs != nil {
		return cs
	}
	return s.pending[id]
}

// register makes a session live when mcp-go registers it: the pending entry
// of an id the hub generated, or a new one (HTTP+SSE and stdio sessions,
// whose ids mcp-go makes). The endpoint and root of the request that made
// it are its own unless initialize already said otherwise. A generated id
// that is no longer pending was terminated before mcp-go got to register it
// (a DELETE raced the initialize's answer): it gets no entry, and stays
// ended; register returns nil.
func (s *clientSessions) register(ctx context.Context, t server.ClientSession) *clientSession {
	id := t.SessionID()
	s.mu.Lock()
	cs := s.pending[id]
	if cs == nil {
		cs = s.live[id]
	}
	if cs == nil && strings.HasPrefix(id, generatedPrefix) {
		s.mu.Unlock()
		return nil
	}
	if cs == nil {
		cs = newClientSession(id)
	}
	delete(s.pending, id)
	s.live[id] = cs
	s.mu.Unlock()
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.started, cs.transport = time.Now().UTC(), t
	if ep, ok := endpointOf(ctx); ok && cs.endpoint == "" {
		cs.endpoint = ep.key()
	}
	if r, ok := ctx.Value(rootKey).(string); ok && r != "" && cs.root == "" {
		cs.root = r
	}
	return cs
}

// unused returns the Streamable HTTP sessions (live or pending) whose
// client sent nothing with their id since initialize and that were made
// longer than ttl ago: an initialize nobody followed up (a flood, or a
// client gone), ended after seconds rather than the idle timeout.
func (s *clientSessions) unused(now time.Time, ttl time.Duration) []*clientSession {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []*clientSession
	for _, m := range []map[string]*clientSession{s.pending, s.live} {
		for id, cs := range m {
			if !strings.HasPrefix(id, generatedPrefix) {
				continue
			}
			cs.mu.Lock()
			if !cs.used && now.Sub(cs.made) >= ttl {
				out = append(out, cs)
			}
			cs.mu.Unlock()
		}
	}
	return out
}

// idlest returns the Streamable HTTP session to end to make room for a new
// one, or nil when every one has a request in flight: of those with none,
// a session whose client sent nothing since initialize first (the oldest),
// else the one idle longest. A session of HTTP+SSE or stdio is never
// chosen: its client holds its stream open.
func (s *clientSessions) idlest() *clientSession {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var best *clientSession
	var bestUsed bool
	var bestSeen time.Time
	for _, m := range []map[string]*clientSession{s.pending, s.live} {
		for id, cs := range m {
			if !strings.HasPrefix(id, generatedPrefix) {
				continue
			}
			cs.mu.Lock()
			busy, used, seen := len(cs.inFlight) > 0, cs.used, cs.lastSeen
			cs.mu.Unlock()
			if busy {
				continue
			}
			if best == nil || (!used && bestUsed) || (used == bestUsed && seen.Before(bestSeen)) {
				best, bestUsed, bestSeen = cs, used, seen
			}
		}
	}
	return best
}

// remove takes a session out of the registry and returns it, or nil.
func (s *clientSessions) remove(id string) *clientSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs := s.live[id]
	if cs == nil {
		cs = s.pending[id]
	}
	delete(s.live, id)
	delete(s.pending, id)
	return cs
}

// list returns the live sessions.
func (s *clientSessions) list() []*clientSession {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]*clientSession, 0, len(s.live))
	for _, cs := range s.live {
		out = append(out, cs)
	}
	return out
}

// size returns how many sessions have an entry, live and pending.
func (s *clientSessions) size() (live, pending int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.live), len(s.pending)
}

// info returns the session as /api/status shows it.
func (cs *clientSession) info() console.SessionInfo {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	// The key of an endpoint without a root ends in "?root=": shown as
	// the path alone.
	return console.SessionInfo{ID: cs.id, Started: cs.started, Root: cs.root, Endpoint: strings.TrimSuffix(cs.endpoint, "?root=")}
}

// bind records the endpoint the session was made on, once.
func (cs *clientSession) bind(key string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.endpoint == "" {
		cs.endpoint = key
	}
}

// endpointKey returns the key of the endpoint the session is bound to, or
// "" before its initialize was answered.
func (cs *clientSession) endpointKey() string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.endpoint
}

// rootFolder returns the folder the session works in, or "".
func (cs *clientSession) rootFolder() string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.root
}

// setRoot sets the folder the session works in: the URL's or header's
// scope of its latest request, or what initialize named.
func (cs *clientSession) setRoot(root string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.root = root
}

// rootFromClient takes the first of the client's MCP roots as the folder,
// unless the session has one already (X-Chronicle-Root, ?root= or
// initialize win); it reports whether it took it.
func (cs *clientSession) rootFromClient(root string) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.root != "" {
		return false
	}
	cs.root = root
	return true
}

// listed records the list of a kind the session just got.
func (cs *clientSession) listed(kind, hash string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.seen[kind] = hash
}

// lastListed returns the hash of the list of a kind the session last got.
func (cs *clientSession) lastListed(kind string) (string, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	h, ok := cs.seen[kind]
	return h, ok
}

// touch records that the client sent a message with the session's id.
func (cs *clientSession) touch() {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.lastSeen, cs.used = time.Now(), true
}

// begin records a request the client sent, by its id as sent.
func (cs *clientSession) begin(id []byte, tool string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if _, again := cs.inFlight[string(id)]; !again && len(cs.inFlight) >= maxInFlight {
		return
	}
	cs.inFlight[string(id)] = inFlight{tool: tool}
}

// cancel marks a request in flight as cancelled; a cancel of a request
// already answered (or never sent) is forgotten at once.
func (cs *clientSession) cancel(id []byte) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if r, ok := cs.inFlight[string(id)]; ok {
		r.cancelled = true
		cs.inFlight[string(id)] = r
	}
}

// answered forgets a request as its response goes out and reports whether
// the client cancelled it (then the response is dropped: MCP sends none).
func (cs *clientSession) answered(id []byte) (cancelled bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	r, ok := cs.inFlight[string(id)]
	if !ok {
		return false
	}
	delete(cs.inFlight, string(id))
	return r.cancelled
}

// calling reports whether a tools/call of tool is in flight.
func (cs *clientSession) calling(tool string) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for _, r := range cs.inFlight {
		if r.tool == tool {
			return true
		}
	}
	return false
}

// offeredRoots records that the client offered roots in initialize, and
// reports whether to ask for them now.
func (cs *clientSession) offeredRoots() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.roots.offered = true
	return cs.rootsDue()
}

// initialized records notifications/initialized, and reports whether to
// ask for the client's roots now.
func (cs *clientSession) initialized() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.roots.initialized = true
	return cs.rootsDue()
}

// registered reports, once mcp-go registered the session, whether to ask
// for the client's roots now.
func (cs *clientSession) registered() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.rootsDue()
}

// rootsDue reports whether every condition of the roots request holds and
// it has not been made; the caller holds cs.mu and makes the request.
func (cs *clientSession) rootsDue() bool {
	r := &cs.roots
	if !r.offered || !r.initialized || r.asked || cs.transport == nil {
		return false
	}
	r.asked = true
	return true
}

// session returns mcp-go's session, nil while pending.
func (cs *clientSession) session() server.ClientSession {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.transport
}

// The hub's side: the hooks that keep the registry, and the lookups the
// rest of the hub makes.

// sessionOf returns the client session of an MCP request, or nil (a
// 2026-07-28 request, or the hub's API).
func (h *Hub) sessionOf(ctx context.Context) *clientSession {
	return h.clients.get(sessionID(ctx))
}

// sessionRegistered is mcp-go's session registration hook.
func (h *Hub) sessionRegistered(ctx context.Context, t server.ClientSession) {
	if cs := h.clients.register(ctx, t); cs != nil && cs.registered() {
		h.askRoots(cs)
	}
}

// sessionUnregistered is mcp-go's unregistration hook: the session's entry
// goes, and so do its subscriptions, log level and own upstreams.
func (h *Hub) sessionUnregistered(_ context.Context, t server.ClientSession) {
	id := t.SessionID()
	h.clients.remove(id)
	h.dropSession(id)
	h.pool.endSession(id)
	if h.sessionEnded != nil {
		select {
		case h.sessionEnded <- id:
		default:
		}
	}
}

// sessionInitialized handles notifications/initialized: the client may now
// be asked for its roots.
func (h *Hub) sessionInitialized(ctx context.Context, _ mcp.JSONRPCNotification) {
	if cs := h.sessionOf(ctx); cs != nil && cs.initialized() {
		h.askRoots(cs)
	}
}

// sessionInitialize is the part of the initialize hook about the session:
// the endpoint it is bound to, the folder initialize's request named, and
// whether the client offers roots.
func (h *Hub) sessionInitialize(ctx context.Context, req *mcp.InitializeRequest) {
	cs := h.sessionOf(ctx)
	if cs == nil {
		return
	}
	if r, ok := ctx.Value(rootKey).(string); ok && r != "" {
		cs.setRoot(r)
	}
	if ep, ok := endpointOf(ctx); ok {
		cs.bind(ep.key())
	}
	if req.Params.Capabilities.Roots != nil && cs.offeredRoots() {
		h.askRoots(cs)
	}
}

// askRoots asks a client that offers roots for them, in the background,
// and takes the first as the session's folder unless it has one.
func (h *Hub) askRoots(cs *clientSession) {
	t := cs.session()
	h.goTracked(func() {
		ctx, cancel := context.WithTimeout(h.ctx, 10*time.Second)
		defer cancel()
		res, err := h.srv.RequestRoots(h.srv.WithContext(ctx, t), mcp.ListRootsRequest{})
		if err != nil || res == nil || len(res.Roots) == 0 {
			return
		}
		if root := wire.RootFromURI(res.Roots[0].URI); root != "" && cs.rootFromClient(root) {
			_ = h.srv.SendNotificationToSpecificClient(cs.id, string(mcp.MethodNotificationToolsListChanged), nil)
			_ = h.srv.SendNotificationToSpecificClient(cs.id, string(mcp.MethodNotificationPromptsListChanged), nil)
		}
	})
}

// makeRoom ends sessions until a new one fits under hub { max_sessions }:
// the one idle longest, a session whose client sent nothing since
// initialize first, never one with a request in flight (idlest). It says
// why a new session is refused when none can be ended, or "". The room it
// makes is reserved for the caller until release is called (once the
// initialize is answered and its session counted), so that initializes
// arriving together never take the hub over its limit.
func (h *Hub) makeRoom() (release func(), refused string) {
	h.mu.Lock()
	limit := config.DefaultMaxSessions
	if h.st != nil && h.st.Hub != nil && h.st.Hub.MaxSessions > 0 {
		limit = h.st.Hub.MaxSessions
	}
	h.mu.Unlock()
	h.roomMu.Lock()
	defer h.roomMu.Unlock()
	for {
		live, pending := h.clients.size()
		if live+pending+h.reserved < limit {
			h.reserved++
			var once sync.Once
			return func() {
				once.Do(func() {
					h.roomMu.Lock()
					h.reserved--
					h.roomMu.Unlock()
				})
			}, ""
		}
		cs := h.clients.idlest()
		if cs == nil {
			return func() {}, fmt.Sprintf("the hub holds %d client sessions, its limit (hub { max_sessions = %d }), and each has a request in flight: try again when one is answered, or raise the limit", live+pending, limit)
		}
		h.log.Info("ending the client session idle longest: the hub holds as many as hub { max_sessions } allows", "session", cs.id, "max_sessions", limit)
		h.endSession(cs)
	}
}

// sweepUnused ends, every half of Options.UnusedSessionTTL until the hub
// closes, the sessions whose client sent nothing since initialize within
// that time.
func (h *Hub) sweepUnused() {
	tick := time.NewTicker(h.opts.UnusedSessionTTL / 2)
	defer tick.Stop()
	for {
		select {
		case <-h.ctx.Done():
			return
		case now := <-tick.C:
			for _, cs := range h.clients.unused(now, h.opts.UnusedSessionTTL) {
				h.endSession(cs)
			}
		}
	}
}

// endSession ends a Streamable HTTP session as a DELETE from its client
// would, so that mcp-go lets go of it too (and its unregistration hook
// drops the rest); a pending id, which mcp-go has not registered, just
// stops being valid.
func (h *Hub) endSession(cs *clientSession) {
	h.mu.Lock()
	mcpHTTP := h.mcpHTTP
	h.mu.Unlock()
	if cs.session() == nil || mcpHTTP == nil {
		h.clients.remove(cs.id)
		return
	}
	req, err := http.NewRequestWithContext(h.ctx, http.MethodDelete, "/mcp", nil)
	if err != nil {
		return
	}
	req.Header.Set(server.HeaderKeySessionID, cs.id)
	mcpHTTP.ServeHTTP(discardResponse{header: http.Header{}}, req)
	h.clients.remove(cs.id) // had mcp-go refused, the id still ends
}

// A discardResponse is the response of a request the hub makes of mcp-go
// itself (endSession).
type discardResponse struct{ header http.Header }

func (d discardResponse) Header() http.Header         { return d.header }
func (d discardResponse) Write(b []byte) (int, error) { return len(b), nil }
func (d discardResponse) WriteHeader(int)             {}

package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
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

// A Session is what the hub keeps about one client session: where it
// was made and the folder it works in, what it listed (the outbound filter),
// the requests it has in flight (tools/call of stdio, whose requests carry
// no context of their own, and the ids a cancel may name), and the state of
// its roots handshake.
type Session struct {
	id string

	mu        sync.Mutex
	made      time.Time            // when its id was made or the session registered
	lastSeen  time.Time            // when the client last sent a message with its id, or its standalone stream carried one
	used      bool                 // the client sent a message with its id since initialize
	started   time.Time            // when mcp-go registered it; zero while pending
	transport server.ClientSession // mcp-go's session; nil while pending
	endpoint  string               // key of the endpoint it was made on; "" for stdio
	root      string               // the folder it works in, "" for the hub's default
	seen      map[string]string    // list kind → hash of the list it last got
	inFlight  map[string]inFlight  // request id as sent (raw JSON) → the request
	roots     rootsHandshake
	elicits   bool // the client offered elicitation in initialize

	settled    chan struct{} // closed once mcp-go registered the session, or it ended
	settleOnce sync.Once
}

// An inFlight request is one the client sent and has not been answered.
type inFlight struct {
	tool      string // the tool a tools/call names, else ""
	cancelled bool   // the client sent notifications/cancelled for it
	stop      func() // ends the request's handling, when the hub serves it (OnCancel)
}

// A rootsHandshake holds what must all be true before the hub asks a client
// for its roots: it offered them in initialize, it sent
// notifications/initialized (MCP: no request before that), mcp-go has
// registered the session, and the stream the request goes out on is open.
type rootsHandshake struct {
	offered, initialized, asked bool
	// streaming: the client has a stream open that carries server→client
	// requests: a stdio or HTTP+SSE session from the start, a Streamable
	// HTTP session once mcp-go attached its standalone GET stream (a
	// request queued before that is recorded for a resume, not sent:
	// decision 0200).
	streaming bool
}

func newSession(id string) *Session {
	now := time.Now()
	return &Session{id: id, made: now, lastSeen: now, seen: map[string]string{}, inFlight: map[string]inFlight{}, settled: make(chan struct{})}
}

// settle closes settled, once.
func (cs *Session) settle() { cs.settleOnce.Do(func() { close(cs.settled) }) }

// Settled is closed once mcp-go registered the session (its ClientSession
// is set) or the session ended. A standalone GET of a pending session waits
// for it (transport): mcp-go registers a session only after it answered its
// initialize, and a GET that reaches mcp-go first makes a second session
// object under the same id, which loses the race to register and leaves the
// first one's server→client requests on a channel nobody reads.
func (cs *Session) Settled() <-chan struct{} { return cs.settled }

// Registry is the registry. It is also mcp-go's SessionIdManager for
// Streamable HTTP, so that an id is valid exactly while it has an entry.
type Registry struct {
	mu      sync.RWMutex
	live    map[string]*Session // registered by mcp-go, until unregistered
	pending map[string]*Session // generated for an initialize, not registered yet

	roomMu   sync.Mutex // MakeRoom: one at a time ends sessions for a new one
	reserved int        // sessions MakeRoom made room for and not yet counted; guarded by roomMu
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{live: map[string]*Session{}, pending: map[string]*Session{}}
}

// generatedPrefix begins every id Generate makes (and no id mcp-go makes
// for HTTP+SSE or stdio).
const generatedPrefix = "mcp-session-"

// Generate makes the id of a new Streamable HTTP session (SessionIdManager).
func (s *Registry) Generate() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	id := generatedPrefix + hex.EncodeToString(b)
	s.mu.Lock()
	s.pending[id] = newSession(id)
	s.mu.Unlock()
	return id
}

// Validate accepts the ids of sessions that have an entry (SessionIdManager).
func (s *Registry) Validate(id string) (bool, error) {
	if s.Get(id) == nil {
		return false, errors.New("unknown session " + id)
	}
	return false, nil
}

// Terminate ends a session's id at once (SessionIdManager); mcp-go
// unregisters the session right after.
func (s *Registry) Terminate(id string) (bool, error) {
	if s.Remove(id) == nil {
		return false, errors.New("unknown session " + id)
	}
	return false, nil
}

// Get returns the session with id, live or pending, or nil.
func (s *Registry) Get(id string) *Session {
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

// Register makes a session live when mcp-go registers it: the pending entry
// of an id the hub generated, or a new one (HTTP+SSE and stdio sessions,
// whose ids mcp-go makes). The endpoint and root of the request that made
// it are its own unless initialize already said otherwise. A generated id
// that is no longer pending was terminated before mcp-go got to Register it
// (a DELETE raced the initialize's answer): it gets no entry, and stays
// ended; Register returns nil.
func (s *Registry) Register(ctx context.Context, t server.ClientSession) *Session {
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
		cs = newSession(id)
	}
	delete(s.pending, id)
	s.live[id] = cs
	s.mu.Unlock()
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.started, cs.transport = time.Now().UTC(), t
	if !strings.HasPrefix(id, generatedPrefix) {
		cs.roots.streaming = true
	}
	if ep, ok := EndpointOf(ctx); ok && cs.endpoint == "" {
		cs.endpoint = ep.Key()
	}
	if r := RootOf(ctx); r != "" && cs.root == "" {
		cs.root = r
	}
	cs.settle()
	return cs
}

// Expired returns the Streamable HTTP sessions (live or pending) to end at
// now: those whose client sent nothing with their id since initialize and
// that were made at least unused ago (an initialize nobody followed up, a
// flood or a client gone, ended after seconds), and those idle at least
// idle long — nothing from their client, nothing on their standalone
// stream — with no request in flight. The hub, not mcp-go, ends idle
// sessions: it serves some requests without mcp-go (decision 0241).
func (s *Registry) Expired(now time.Time, unused, idle time.Duration) []*Session {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []*Session
	for _, m := range []map[string]*Session{s.pending, s.live} {
		for id, cs := range m {
			if !strings.HasPrefix(id, generatedPrefix) {
				continue
			}
			cs.mu.Lock()
			if !cs.used && now.Sub(cs.made) >= unused || len(cs.inFlight) == 0 && now.Sub(cs.lastSeen) >= idle {
				out = append(out, cs)
			}
			cs.mu.Unlock()
		}
	}
	return out
}

// Idlest returns the Streamable HTTP session to end to make room for a new
// one, or nil when every one has a request in flight: of those with none,
// a session whose client sent nothing since initialize first (the oldest),
// else the one idle longest. A session of HTTP+SSE or stdio is never
// chosen: its client holds its stream open.
func (s *Registry) Idlest() *Session {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var best *Session
	var bestUsed bool
	var bestSeen time.Time
	for _, m := range []map[string]*Session{s.pending, s.live} {
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

// Remove takes a session out of the registry and returns it, or nil.
func (s *Registry) Remove(id string) *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs := s.live[id]
	if cs == nil {
		cs = s.pending[id]
	}
	delete(s.live, id)
	delete(s.pending, id)
	if cs != nil {
		cs.settle()
	}
	return cs
}

// List returns the live sessions.
func (s *Registry) List() []*Session {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]*Session, 0, len(s.live))
	for _, cs := range s.live {
		out = append(out, cs)
	}
	return out
}

// Size returns how many sessions have an entry, live and pending.
func (s *Registry) Size() (live, pending int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.live), len(s.pending)
}

// Info returns the session as /api/status shows it.
func (cs *Session) Info() Info {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	// The key of an endpoint without a root ends in "?root=": shown as
	// the path alone.
	return Info{ID: cs.id, Started: cs.started, Root: cs.root, Endpoint: strings.TrimSuffix(cs.endpoint, "?root=")}
}

// Bind records the endpoint the session was made on, once.
func (cs *Session) Bind(key string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.endpoint == "" {
		cs.endpoint = key
	}
}

// EndpointKey returns the key of the endpoint the session is bound to, or
// "" before its initialize was answered.
func (cs *Session) EndpointKey() string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.endpoint
}

// RootFolder returns the folder the session works in, or "".
func (cs *Session) RootFolder() string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.root
}

// SetRoot sets the folder the session works in: the URL's or header's
// scope of its latest request, or what initialize named.
func (cs *Session) SetRoot(root string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.root = root
}

// RootFromClient takes the first of the client's MCP roots as the folder,
// unless the session has one already (X-Chronicle-Root, ?root= or
// initialize win); it reports whether it took it.
func (cs *Session) RootFromClient(root string) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.root != "" {
		return false
	}
	cs.root = root
	return true
}

// Listed records the list of a kind the session just got.
func (cs *Session) Listed(kind, hash string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.seen[kind] = hash
}

// LastListed returns the hash of the list of a kind the session last got.
func (cs *Session) LastListed(kind string) (string, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	h, ok := cs.seen[kind]
	return h, ok
}

// Touch records that the client sent a message with the session's id.
func (cs *Session) Touch() {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.lastSeen, cs.used = time.Now(), true
}

// Carried records that the session's standalone stream carried a message
// to the client: the session is not idle (as mcp-go counted it), though
// its client sent nothing.
func (cs *Session) Carried() {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.lastSeen = time.Now()
}

// Begin records a request the client sent, by its id as sent.
func (cs *Session) Begin(id []byte, tool string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if _, again := cs.inFlight[string(id)]; !again && len(cs.inFlight) >= maxInFlight {
		return
	}
	cs.inFlight[string(id)] = inFlight{tool: tool}
}

// Cancel marks a request in flight as cancelled; a Cancel of a request
// already answered (or never sent) is forgotten at once.
func (cs *Session) Cancel(id []byte) {
	if r, ok := cs.mark(id, func(r *inFlight) { r.cancelled = true }); ok && r.stop != nil {
		r.stop()
	}
}

// OnCancel has stop called when the client cancels the request id in
// flight (mcp-go cancels the requests it serves itself; this is for those
// the hub serves beside it), at once if the client cancelled it already.
// It reports false, and keeps nothing, when the request is not in flight
// (the session holds at most maxInFlight).
func (cs *Session) OnCancel(id []byte, stop func()) bool {
	r, ok := cs.mark(id, func(r *inFlight) { r.stop = stop })
	if ok && r.cancelled {
		stop()
	}
	return ok
}

// mark changes the request id in flight with change, under the lock, and
// returns it as changed; false when it is not in flight. What the change
// calls for (a stop function) is run by the caller, outside the lock.
func (cs *Session) mark(id []byte, change func(*inFlight)) (inFlight, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	r, ok := cs.inFlight[string(id)]
	if ok {
		change(&r)
		cs.inFlight[string(id)] = r
	}
	return r, ok
}

// Answered forgets a request as its response goes out and reports whether
// the client cancelled it (then the response is dropped: MCP sends none).
func (cs *Session) Answered(id []byte) (cancelled bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	r, ok := cs.inFlight[string(id)]
	if !ok {
		return false
	}
	delete(cs.inFlight, string(id))
	return r.cancelled
}

// Calling reports whether a tools/call of tool is in flight.
func (cs *Session) Calling(tool string) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for _, r := range cs.inFlight {
		if r.tool == tool {
			return true
		}
	}
	return false
}

// OfferedRoots records that the client offered roots in initialize, and
// reports whether to ask for them now.
func (cs *Session) OfferedRoots() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.roots.offered = true
	return cs.RootsDue()
}

// OfferedElicitation records that the client offered elicitation in
// initialize.
func (cs *Session) OfferedElicitation() {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.elicits = true
}

// NeedsRequestStream reports whether a server→client request made during
// one of the client's calls can reach it only on that call's own stream:
// it offered elicitation, which mcp-go (v1.2.1) sends on the stream of the
// POST it serves, else on the standalone GET stream, and it has no GET
// stream open. Sampling always goes on the GET stream.
func (cs *Session) NeedsRequestStream() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.elicits && !cs.roots.streaming
}

// Initialized records notifications/Initialized, and reports whether to
// ask for the client's roots now.
func (cs *Session) Initialized() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.roots.initialized = true
	return cs.RootsDue()
}

// Registered reports, once mcp-go Registered the session, whether to ask
// for the client's roots now.
func (cs *Session) Registered() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.RootsDue()
}

// StreamOpen records that the client's standalone GET stream is open, and
// reports whether to ask for the client's roots now.
func (cs *Session) StreamOpen() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.roots.streaming = true
	return cs.RootsDue()
}

// RootsDue reports whether every condition of the roots request holds and
// it has not been made; the caller holds cs.mu and makes the request.
func (cs *Session) RootsDue() bool {
	r := &cs.roots
	if !r.offered || !r.initialized || !r.streaming || r.asked || cs.transport == nil {
		return false
	}
	r.asked = true
	return true
}

// ClientSession returns mcp-go's ClientSession, nil while pending.
func (cs *Session) ClientSession() server.ClientSession {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.transport
}

// ID returns the session's id.
func (cs *Session) ID() string { return cs.id }

// MakeRoom ends sessions with end until a new one fits under limit: the
// one idle longest, a session whose client sent nothing since initialize
// first, never one with a request in flight (Idlest). It says why a new
// session is refused when none can be ended, or "". The room it makes is
// reserved for the caller until release is called (once the initialize is
// answered and its session counted), so that initializes arriving together
// never take the registry over its limit.
func (s *Registry) MakeRoom(limit int, end func(*Session)) (release func(), refused string) {
	s.roomMu.Lock()
	defer s.roomMu.Unlock()
	for {
		live, pending := s.Size()
		if live+pending+s.reserved < limit {
			s.reserved++
			var once sync.Once
			return func() {
				once.Do(func() {
					s.roomMu.Lock()
					s.reserved--
					s.roomMu.Unlock()
				})
			}, ""
		}
		cs := s.Idlest()
		if cs == nil {
			return func() {}, fmt.Sprintf("the hub holds %d client sessions, its limit (hub { max_sessions = %d }), and each has a request in flight: try again when one is answered, or raise the limit", live+pending, limit)
		}
		end(cs)
	}
}

// Sweep ends with end, until ctx ends, the sessions Expired with unused
// and idle, looking every half of the shorter.
func (s *Registry) Sweep(ctx context.Context, unused, idle time.Duration, end func(*Session)) {
	tick := time.NewTicker(min(unused, idle) / 2)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			for _, cs := range s.Expired(now, unused, idle) {
				end(cs)
			}
		}
	}
}

// InFlight returns how many of the session's requests are in flight.
func (cs *Session) InFlight() int {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return len(cs.inFlight)
}

// An Info is one live session as /api/status shows it.
type Info struct {
	ID       string    `json:"id"`
	Started  time.Time `json:"started"`
	Root     string    `json:"root,omitempty"`
	Endpoint string    `json:"endpoint,omitempty"`
}

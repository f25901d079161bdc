package held

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/chronicle-dev/chronicle/hub/seal"
)

// ErrState refuses a requestState that does not resume a held call: not
// sealed by this hub, altered, sent with another request or by another
// client than the one it was handed to, used before, or naming a call that
// ended (not resumed in time). All look alike to the client, so none tells
// what the hub holds.
var ErrState = errors.New("the requestState does not resume a call of this client: it was altered, used before, sent with another request, or its call has ended")

// ErrNotResumed is why a call is cancelled whose client did not retry
// within its bound.
var ErrNotResumed = errors.New("the client did not come back with its answer")

// errClientGone ends a held call whose client gave up on a round.
var errClientGone = errors.New("the client cancelled the request")

// errClosed ends the held calls of a hub that stops.
var errClosed = errors.New("the chronicle hub is stopping")

// Calls are the calls held for their clients, by id.
type Calls struct {
	sealer *seal.Sealer
	mu     sync.Mutex
	calls  map[string]*Call
	closed bool
}

// New returns the held calls of a hub, whose requestStates s seals.
func New(s *seal.Sealer) *Calls {
	return &Calls{sealer: s, calls: map[string]*Call{}}
}

// A Call is one upstream request held open for its client.
type Call struct {
	calls *Calls
	id    string
	bound time.Duration
	// Token is the hub's progress token the upstream request carries, ""
	// for none: each round routes it to the client of that round.
	Token string

	ctx    context.Context
	cancel context.CancelCauseFunc
	done   chan struct{} // closed once raw and err are set
	raw    json.RawMessage
	err    error
	nudge  chan struct{} // a question arrived

	mu      sync.Mutex
	bind    string
	binder  func() string // makes bind, when the call is first handed out
	seq     int
	pending map[string]*question // asked and not answered yet, by key
	nonce   string               // the state of the round handed out; "" once used
	timer   *time.Timer          // ends the call when its client does not come back
}

// A question is one request of the upstream for the client.
type question struct {
	request json.RawMessage      // {method, params} in the 2026-07-28 shape
	answer  chan json.RawMessage // buffered: the client's response
}

// A statePayload is what a requestState of the hub's seals: the call, and
// the round it was handed out for.
type statePayload struct {
	Call  string `json:"c"`
	Nonce string `json:"n"`
}

// Start runs the upstream request run on a context of its own, which keeps
// ctx's values but not its end (the client's round ends, the call goes on),
// and holds it. bind says who may resume it (the client and the request,
// compared whole); it is made only if the call is ever handed out. bound is
// how long a round handed out waits for its retry.
func (cs *Calls) Start(ctx context.Context, bind func() string, bound time.Duration, run func(context.Context, *Call) (json.RawMessage, error)) *Call {
	hctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	c := &Call{calls: cs, id: randomID(), bound: bound, ctx: hctx, cancel: cancel, binder: bind,
		done: make(chan struct{}), nudge: make(chan struct{}, 1), pending: map[string]*question{}}
	cs.mu.Lock()
	if cs.closed {
		cancel(errClosed)
	}
	cs.calls[c.id] = c
	cs.mu.Unlock()
	go func() {
		c.raw, c.err = run(hctx, c)
		close(c.done)
	}()
	return c
}

// Ask puts request (an upstream's request, in the 2026-07-28 shape: see
// Request) to the call's client at its next round and returns the client's
// answer. It fails when ctx ends (the upstream gave up asking) or the call
// does (cancelled, or not resumed within its bound).
func (c *Call) Ask(ctx context.Context, request json.RawMessage) (json.RawMessage, error) {
	q := &question{request: request, answer: make(chan json.RawMessage, 1)}
	c.mu.Lock()
	c.seq++
	key := fmt.Sprintf("chronicle-%d", c.seq)
	c.pending[key] = q
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, key)
		c.mu.Unlock()
	}()
	select {
	case c.nudge <- struct{}{}:
	default:
	}
	select {
	case r := <-q.answer:
		return r, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	case <-c.ctx.Done():
		return nil, context.Cause(c.ctx)
	}
}

// Wait is one round of the client: it returns the call's result, or, while
// the upstream has questions for the client, an input_required result
// holding them under keys of the hub's and a requestState that resumes the
// call once. When ctx ends first, the client gave up: the call is
// cancelled, as a session-era client's cancellation would.
func (c *Call) Wait(ctx context.Context) (json.RawMessage, error) {
	for {
		select {
		case <-c.done:
			c.calls.forget(c)
			return c.raw, c.err
		default:
		}
		if r, ok := c.handOut(); ok {
			return r, nil
		}
		select {
		case <-c.done:
		case <-c.nudge:
		case <-ctx.Done():
			c.end(errClientGone)
			return nil, context.Cause(ctx)
		}
	}
}

// handOut returns the questions pending as an input_required result, and
// starts the bound within which the client must resume the call; false
// when nothing is pending.
func (c *Call) handOut() (json.RawMessage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) == 0 {
		return nil, false
	}
	if c.binder != nil {
		c.bind, c.binder = c.binder(), nil
	}
	keys := make([]string, 0, len(c.pending))
	for k := range c.pending {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	requests := make(map[string]json.RawMessage, len(keys))
	for _, k := range keys {
		requests[k] = c.pending[k].request
	}
	c.nonce = randomID()
	payload, _ := json.Marshal(statePayload{Call: c.id, Nonce: c.nonce}) // two strings: never fails
	bound := c.bound
	c.timer = time.AfterFunc(bound, func() {
		c.end(fmt.Errorf("%w within %s (the service's timeout)", ErrNotResumed, bound))
	})
	out, err := json.Marshal(struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}{"input_required", requests, c.calls.sealer.Seal(payload)})
	return out, err == nil
}

// Resume returns the call a requestState of the hub's names, for a retry
// that bind describes, and gives its pending questions the answers (by
// key; a question left unanswered is put again at the next round). A state
// resumes its call once; anything else is ErrState. before, if not nil,
// is run with the call once it is resumed and before the answers let its
// upstream go on.
func (cs *Calls) Resume(state, bind string, answers map[string]json.RawMessage, before func(*Call)) (*Call, error) {
	b, err := cs.sealer.Open(state)
	var p statePayload
	if err != nil || json.Unmarshal(b, &p) != nil {
		return nil, ErrState
	}
	cs.mu.Lock()
	c := cs.calls[p.Call]
	cs.mu.Unlock()
	if c == nil {
		return nil, ErrState
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nonce == "" || subtle.ConstantTimeCompare([]byte(c.nonce), []byte(p.Nonce)) != 1 || c.bind != bind {
		return nil, ErrState
	}
	if c.timer != nil && !c.timer.Stop() {
		return nil, ErrState // its bound passed as the retry came
	}
	c.nonce, c.timer = "", nil
	if before != nil {
		before(c) // before the answers let the upstream go on
	}
	for k, r := range answers {
		if q := c.pending[k]; q != nil {
			q.answer <- r
			delete(c.pending, k)
		}
	}
	return c, nil
}

// end forgets the call and cancels it upstream with why: once the
// upstream hears of it, the call is no longer held.
func (c *Call) end(why error) {
	c.calls.forget(c)
	c.cancel(why)
}

// forget drops a call that ended or was answered.
func (cs *Calls) forget(c *Call) {
	cs.mu.Lock()
	if cs.calls[c.id] == c {
		delete(cs.calls, c.id)
	}
	cs.mu.Unlock()
	c.mu.Lock()
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	c.nonce = ""
	c.mu.Unlock()
}

// Held returns how many calls are held: started and not yet answered, or
// handed out and waiting for their client.
func (cs *Calls) Held() int {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return len(cs.calls)
}

// Close cancels every held call, and any started later.
func (cs *Calls) Close() {
	cs.mu.Lock()
	cs.closed = true
	calls := make([]*Call, 0, len(cs.calls))
	for _, c := range cs.calls {
		calls = append(calls, c)
	}
	cs.mu.Unlock()
	for _, c := range calls {
		c.end(errClosed)
	}
}

// randomID is 128 random bits, base64url.
func randomID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand never fails on supported systems
	return base64.RawURLEncoding.EncodeToString(b)
}

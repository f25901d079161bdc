package upstream

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
)

// A State is where an upstream is in its life.
type State string

// The states of an upstream.
const (
	StateIdle     State = "idle"     // not started yet (stdio children start on first need)
	StateStarting State = "starting" // launching or connecting
	StateReady    State = "ready"    // answering
	StateFailed   State = "failed"   // exited or could not start; restarted on the next need
	StateStopped  State = "stopped"  // removed from the pool or the pool was closed
)

// An Upstream is the hub's connection to one service. It starts the service
// on first need, restarts it with backoff after it fails, and bounds every
// call by the service's timeout. Its methods are safe for concurrent use.
type Upstream struct {
	// spec is the service the upstream was made for: what it launches or
	// connects to. current is the service as the pool last reconciled it,
	// which may differ from spec in what applies live (SameUpstream): the
	// timeout of the next call is current's.
	spec    service.Service
	current atomic.Pointer[service.Service]
	opts    PoolOptions

	ctx    context.Context // ended by stop
	cancel context.CancelFunc
	wg     sync.WaitGroup // starts, child watchers and catalog refreshes

	mu       sync.Mutex
	state    State
	stopped  string // why the upstream was stopped, for the calls it ends
	lastErr  string
	sess     *session
	starting *attempt // the start in progress, if any
	starts   int
	failures int       // failures in a row, for the backoff
	retryAt  time.Time // no restart before this
	// needsLogin says why a service with an oauth block needs a login
	// (noteLoginLocked); empty while it has a usable one.
	needsLogin string

	inflight rpc.Flights // requests sent with Request, by id

	tasks sync.Map // the tasks RequestTask waits for: upstream task id → *taskWatch (task.go)
}

// An attempt is one start; waiters read its outcome once done is closed.
type attempt struct {
	done chan struct{}
	sess *session
	err  error
}

func newUpstream(spec service.Service, opts PoolOptions) *Upstream {
	ctx, cancel := context.WithCancel(context.Background())
	u := &Upstream{spec: spec, opts: opts, ctx: ctx, cancel: cancel, state: StateIdle}
	u.current.Store(&spec)
	return u
}

// Service returns the service the upstream runs, as last reconciled.
func (u *Upstream) Service() service.Service { return *u.current.Load() }

// update takes the settings of s that apply live (s.SameUpstream(u.spec)).
func (u *Upstream) update(s service.Service) { u.current.Store(&s) }

// Name returns the service's name.
func (u *Upstream) Name() string { return u.spec.Name }

// Polls reports whether the upstream may end a call's stream before its
// answer (SSE polling, hub/upstream/poll): over Streamable HTTP only.
func (u *Upstream) Polls() bool { return u.spec.Via() == service.HTTP }

// Timeout is the service's timeout for one call.
func (u *Upstream) Timeout() time.Duration {
	if t := u.current.Load().Timeout; t > 0 {
		return t
	}
	return u.opts.Timeout
}

// errorf makes an error about this upstream, prefixed with its name.
func (u *Upstream) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: "+format, append([]any{u.spec.Name}, args...)...)
}

// session returns the live session, starting (or restarting) the upstream
// when there is none. A restart waits out a short backoff when ctx leaves
// time for it, so a call right after a crash still gets its answer; during a
// longer backoff it fails at once with the last error.
func (u *Upstream) session(ctx context.Context) (*session, error) {
	for {
		u.mu.Lock()
		if u.state == StateStopped {
			why := u.stopped
			u.mu.Unlock()
			return nil, u.errorf("%s", why)
		}
		if !u.spec.Enabled {
			u.mu.Unlock()
			return nil, u.errorf("the service is disabled")
		}
		if s := u.sess; s != nil {
			u.mu.Unlock()
			return s, nil
		}
		if a := u.starting; a != nil {
			u.mu.Unlock()
			select {
			case <-a.done:
				if a.err != nil {
					return nil, a.err
				}
				return a.sess, nil
			case <-ctx.Done():
				return nil, u.errorf("waiting for the service to start: %w", ctx.Err())
			}
		}
		if wait := time.Until(u.retryAt); wait > 0 {
			lastErr := u.lastErr
			u.mu.Unlock()
			if dl, ok := ctx.Deadline(); wait > maxRestartWait || ok && time.Until(dl) < wait {
				return nil, u.errorf("%s (next restart in %s)", lastErr, wait.Round(time.Millisecond))
			}
			select {
			case <-time.After(wait):
				continue
			case <-ctx.Done():
				return nil, u.errorf("%s (waiting to restart: %w)", lastErr, ctx.Err())
			}
		}
		a := &attempt{done: make(chan struct{})}
		u.starting = a
		u.state = StateStarting
		u.wg.Add(1)
		u.mu.Unlock()
		go u.start(a)
	}
}

// start makes a new session within the start timeout and publishes the
// outcome.
func (u *Upstream) start(a *attempt) {
	defer u.wg.Done()
	ctx, cancel := context.WithTimeout(u.ctx, u.opts.StartTimeout)
	defer cancel()
	begun := time.Now()
	sess, err := u.dial(ctx)

	u.mu.Lock()
	defer close(a.done)
	defer u.mu.Unlock()
	u.starting = nil
	switch {
	case u.state == StateStopped:
		if sess != nil {
			go sess.close()
		}
		a.err = u.errorf("stopped")
		return
	case err != nil:
		a.err = u.errorf("%w", err)
		u.noteLoginLocked(err)
		u.failLocked(err.Error())
		u.opts.Logger.Warn(u.spec.Name+": could not start", "service", u.spec.Name, "error", a.err.Error())
		return
	}
	a.sess = sess
	u.sess = sess
	u.state = StateReady
	u.lastErr = ""
	u.noteLoginLocked(nil)
	u.starts++
	took := time.Since(begun).Round(time.Millisecond).String()
	if sess.child != nil {
		u.opts.Logger.Info(u.spec.Name+": ready", "service", u.spec.Name, "pid", sess.pid(), "took", took)
		u.wg.Add(1)
		go u.watch(sess)
	} else {
		u.opts.Logger.Info(u.spec.Name+": ready", "service", u.spec.Name, "took", took)
	}
	if u.starts > 1 {
		// A restarted upstream may offer something else: list it again
		// and tell the hub.
		u.refreshLocked(sess)
	}
}

// failLocked records a failure and schedules the earliest restart.
func (u *Upstream) failLocked(reason string) {
	u.state = StateFailed
	u.lastErr = reason
	u.failures++
	u.retryAt = time.Now().Add(backoff(u.failures))
}

// watch marks the upstream failed when its child exits on its own.
func (u *Upstream) watch(s *session) {
	defer u.wg.Done()
	<-s.child.Done
	u.lost(s, "the process "+s.child.Describe())
}

// lost retires a session that can no longer answer. The next need starts a
// new one, after the backoff.
func (u *Upstream) lost(s *session, reason string) {
	u.mu.Lock()
	if u.sess != s {
		u.mu.Unlock()
		return
	}
	u.sess = nil
	if u.state != StateStopped {
		if time.Since(s.started) >= healthyAfter {
			u.failures = 0
		}
		u.failLocked(reason)
		u.opts.Logger.Warn(u.spec.Name+": "+reason, "service", u.spec.Name)
	}
	u.mu.Unlock()
	s.close()
}

// ended returns why the upstream was stopped, or "" while it runs: a call
// the stop cut off says so rather than how the connection broke.
func (u *Upstream) ended() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.stopped
}

// Why an upstream is stopped, as the calls it ends say.
const (
	stopRestarted = "restarted: configuration changed"
	stopRemoved   = "stopped: no longer served (configuration changed)"
	stopClosed    = "stopped: the hub is shutting down"
)

// stopFor ends the upstream for good and waits for its goroutines; why is
// what the calls it ends are told (see ended).
func (u *Upstream) stopFor(why string) {
	u.mu.Lock()
	u.state = StateStopped
	if u.stopped == "" {
		u.stopped = why
	}
	s := u.sess
	u.sess = nil
	u.mu.Unlock()
	u.cancel()
	if s != nil {
		s.close()
	}
	u.wg.Wait()
}

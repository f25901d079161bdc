package upstream

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/oauth"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/mark3labs/mcp-go/mcp"
)

// PoolOptions configure a Pool. The zero value of each field has a default.
type PoolOptions struct {
	// Masker receives every secret value resolved for an upstream before
	// the value is used, and masks what the pool logs and returns (default:
	// a Masker of the pool's own).
	Masker *mask.Masker
	// Resolver resolves the secret references in Specs when an upstream
	// is launched or connected.
	Resolver secret.Resolver
	// Logger receives upstream events and each line children write to
	// stderr, with a "service" attribute; the default discards them.
	Logger *slog.Logger
	// Timeout bounds each call to a service whose Spec has no timeout
	// (default 60 s).
	Timeout time.Duration
	// StartTimeout bounds launching or connecting and initializing one
	// upstream (default 30 s).
	StartTimeout time.Duration
	// Parallel bounds how many upstreams ListAll lists at once (default 16).
	Parallel int
	// OnChange is called, from a goroutine of its own, after a service's
	// catalog was listed again because the service restarted or sent a
	// list_changed notification.
	OnChange func(service string)
	// OnNotification receives every notification an upstream sends other
	// than list_changed (progress, log messages, resources/updated), with
	// the service's name, on the transport's goroutine.
	OnNotification func(service string, n mcp.JSONRPCNotification)
	// OnRequest answers a request an upstream makes of its client
	// (sampling/createMessage, elicitation/create, roots/list). caller is
	// the caller of the one Request in flight on that upstream, or nil for
	// a roots/list outside any call. The Request's timeout is paused while
	// OnRequest runs.
	OnRequest func(ctx context.Context, service string, caller any, method string, params json.RawMessage) (json.RawMessage, error)
	// ClientInfo is how the hub introduces itself to upstreams.
	ClientInfo mcp.Implementation
	// OAuth is the store of the logins `chronicle auth login` made
	// (~/.chronicle/oauth/): a service with an oauth block is reached with
	// its tokens, and does not start without a usable login. nil: oauth
	// blocks are not used (the service is reached with its headers only).
	OAuth *oauth.Store
	// Environ returns the hub's environment, of which a child gets the
	// minimal set and what its service inherits (default os.Environ).
	Environ func() []string
}

func (o PoolOptions) withDefaults() PoolOptions {
	if o.Masker == nil {
		o.Masker = mask.NewMasker()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Timeout <= 0 {
		o.Timeout = 60 * time.Second
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 30 * time.Second
	}
	if o.Parallel <= 0 {
		o.Parallel = 16
	}
	if o.ClientInfo.Name == "" {
		o.ClientInfo = mcp.Implementation{Name: "chronicle-hub", Version: "dev"}
	}
	if o.Environ == nil {
		o.Environ = os.Environ
	}
	return o
}

// A Pool holds one Upstream per service. Its methods are safe for
// concurrent use.
type Pool struct {
	opts PoolOptions

	mu        sync.Mutex
	upstreams map[string]*Upstream
	closed    bool
}

// NewPool returns an empty pool; Reconcile fills it.
func NewPool(opts PoolOptions) *Pool {
	return &Pool{opts: opts.withDefaults(), upstreams: map[string]*Upstream{}}
}

// Reconcile makes the pool hold exactly the given services. An upstream
// whose Spec is unchanged, or changed only in what applies live
// (service.SameUpstream: the timeout), keeps running; a removed or changed
// one is stopped, the calls in flight told why, (its process group killed) before Reconcile returns; a new one is
// added idle and starts on first need. When two Specs share a name, the
// first wins.
func (p *Pool) Reconcile(specs []service.Service) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	next := make(map[string]*Upstream, len(specs))
	for _, s := range specs {
		if _, dup := next[s.Name]; dup {
			continue
		}
		if old := p.upstreams[s.Name]; old != nil && old.spec.SameUpstream(s) {
			// A changed timeout (or another live setting) applies to
			// the next call; calls in flight go on.
			old.update(s)
			next[s.Name] = old
			continue
		}
		next[s.Name] = newUpstream(s, p.opts)
	}
	var replaced, removed []*Upstream
	for name, old := range p.upstreams {
		switch {
		case next[name] == nil:
			removed = append(removed, old)
		case next[name] != old:
			replaced = append(replaced, old)
		}
	}
	p.upstreams = next
	p.mu.Unlock()
	stopAll(replaced, stopRestarted)
	stopAll(removed, stopRemoved)
}

// Get returns the upstream of a service, or nil.
func (p *Pool) Get(name string) *Upstream {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.upstreams[name]
}

// Close stops every upstream, killing every child's process group and
// reaping it. The pool is empty and unusable afterwards.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	all := make([]*Upstream, 0, len(p.upstreams))
	for _, u := range p.upstreams {
		all = append(all, u)
	}
	p.upstreams = map[string]*Upstream{}
	p.mu.Unlock()
	stopAll(all, stopClosed)
}

// stopAll stops upstreams in parallel, since each may wait for its child;
// why is what the calls they end are told.
func stopAll(ups []*Upstream, why string) {
	var wg sync.WaitGroup
	for _, u := range ups {
		wg.Go(func() { u.stopFor(why) })
	}
	wg.Wait()
}

// sorted returns the pool's upstreams sorted by name.
func (p *Pool) sorted() []*Upstream {
	p.mu.Lock()
	defer p.mu.Unlock()
	ups := make([]*Upstream, 0, len(p.upstreams))
	for _, u := range p.upstreams {
		ups = append(ups, u)
	}
	slices.SortFunc(ups, func(a, b *Upstream) int { return strings.Compare(a.spec.Name, b.spec.Name) })
	return ups
}

package listing

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/catalog"
)

// The catalogue is the hub's, not a caller's: every upstream is listed on
// its own, under the hub's lifetime and its own timeout, one listing per
// service at a time (single-flighted), so a slow or stuck upstream delays
// only itself and a client that goes away cancels nothing but its wait.
// Each completed listing rebuilds the one Catalog every endpoint reads.

// An Offer is one service the hub offers, as the Lister lists it.
type Offer struct {
	Name    string
	Project string // its project folder, "" when global
	Policy  *state.Policy
	Backend Backend
}

// A Backend lists what one service offers.
type Backend interface {
	List(ctx context.Context) (catalog.Listing, error)
}

// Grace is how long, by default, a session's first list waits for
// services that have not been listed yet; what arrives later is announced
// with list_changed.
const Grace = 3 * time.Second

// Options are what a Lister works from.
type Options struct {
	// Context is the hub's lifetime: listings run under it.
	Context context.Context
	// Go runs fn on a goroutine the hub waits for when it closes.
	Go func(fn func())
	// Services returns the services offered now (the hub's, from its
	// last reload).
	Services func() []Offer
	Masker   *mask.Masker
	Log      *slog.Logger
	// Timeout bounds listing one service; Grace how long a first list
	// waits for services never listed.
	Timeout, Grace time.Duration
	// Note tells the inspector why listings went stale.
	Note func(string)
	// Built is told each new catalogue before anyone waiting for it is
	// woken: the hub registers it with its MCP server.
	Built func(*catalog.Catalog)
	// CachePath is where the catalogue cache is kept
	// (~/.chronicle/catalog.json); "" to keep none. MetaTokens is what the
	// meta-tools cost, which the cache records.
	CachePath  string
	MetaTokens func() int
}

// A Lister keeps the catalogue of one hub: the last listing of each
// service, and the Catalog built from them.
type Lister struct {
	opts   Options
	flight singleflight.Group

	listMu  sync.Mutex
	slots   map[string]*slot
	changed chan struct{} // closed and replaced at each rebuild

	buildMu sync.Mutex // serialises rebuilds, so catalogues publish in order
	cat     atomic.Pointer[catalog.Catalog]
	empty   *catalog.Catalog // stands in for cat before the first build
	seen    atomic.Bool      // a client has asked for the catalogue

	cacheOnce  sync.Once
	cacheDirty chan struct{} // the catalogue cache should be written
	// CacheWritten, when set (tests), is told after each write of the
	// cache.
	CacheWritten chan struct{}
}

// A slot is what the Lister knows of one service's listing.
type slot struct {
	listing *catalog.Source // nil until first listed
	stale   bool            // list again at the next need
}

// New returns a Lister that has listed nothing yet.
func New(opts Options) *Lister {
	return &Lister{opts: opts, slots: map[string]*slot{}, changed: make(chan struct{}), empty: catalog.Build(nil, nil)}
}

// Catalog returns the current catalogue. Services never listed, or whose
// listing went stale, are listed in the background; the call waits for the
// never-listed ones until they arrive, ctx ends or the grace period
// passes, and then answers with what it has.
func (l *Lister) Catalog(ctx context.Context) *catalog.Catalog {
	l.seen.Store(true)
	missing := l.refreshNeeded()
	if missing > 0 {
		grace := time.NewTimer(l.opts.Grace)
		defer grace.Stop()
		for missing > 0 {
			l.listMu.Lock()
			changed := l.changed
			l.listMu.Unlock()
			if missing = l.unlisted(); missing == 0 {
				break
			}
			select {
			case <-changed:
			case <-grace.C:
				missing = 0
			case <-ctx.Done():
				missing = 0
			case <-l.opts.Context.Done():
				missing = 0
			}
		}
	}
	return l.Current()
}

// Current returns the current catalogue without waiting, or before the
// first build the Lister's own empty one (its own: views are cached on
// it).
func (l *Lister) Current() *catalog.Catalog {
	if c := l.cat.Load(); c != nil {
		return c
	}
	return l.empty
}

// Built returns the last catalogue built, or nil before the first.
func (l *Lister) Built() *catalog.Catalog { return l.cat.Load() }

// Changed returns a channel closed at the next rebuild.
func (l *Lister) Changed() <-chan struct{} {
	l.listMu.Lock()
	defer l.listMu.Unlock()
	return l.changed
}

// refreshNeeded starts a listing of every service that needs one and
// returns how many services have never been listed.
func (l *Lister) refreshNeeded() int {
	missing := 0
	for _, s := range l.opts.Services() {
		l.listMu.Lock()
		sl := l.slots[s.Name]
		if sl == nil {
			sl = &slot{stale: true}
			l.slots[s.Name] = sl
		}
		need, unlisted := sl.stale, sl.listing == nil
		l.listMu.Unlock()
		if unlisted {
			missing++
		}
		if need {
			l.refresh(s.Name)
		}
	}
	return missing
}

// unlisted counts the offered services the published catalogue holds no
// listing of yet: a listing stored but not yet built into a catalogue
// still counts, so a waiter never answers with a catalogue older than what
// it waited for.
func (l *Lister) unlisted() int {
	cat := l.cat.Load()
	n := 0
	for _, s := range l.opts.Services() {
		if cat == nil {
			n++
			continue
		}
		if _, ok := cat.Projects[s.Name]; !ok {
			n++
		}
	}
	return n
}

// refresh lists one service in the background, unless a listing of it is
// already under way.
func (l *Lister) refresh(name string) {
	l.opts.Go(func() {
		_, _, _ = l.flight.Do(name, func() (any, error) {
			l.list(name)
			return nil, nil
		})
	})
}

// list lists one service under the hub's lifetime and stores the outcome,
// unless it failed because the hub is closing.
func (l *Lister) list(name string) {
	var svc *Offer
	for _, s := range l.opts.Services() {
		if s.Name == name {
			svc = &s
		}
	}
	if svc == nil || svc.Backend == nil {
		return
	}
	l.listMu.Lock()
	if sl := l.slots[name]; sl != nil {
		sl.stale = false
	}
	l.listMu.Unlock()

	life := l.opts.Context
	ctx, cancel := context.WithTimeout(life, l.opts.Timeout)
	got, err := svc.Backend.List(ctx)
	cancel()
	if err != nil && (life.Err() != nil || errors.Is(err, context.Canceled)) {
		l.listMu.Lock()
		if sl := l.slots[name]; sl != nil {
			sl.stale = true
		}
		l.listMu.Unlock()
		return // cancelled, not failed: never stored
	}
	stored := &catalog.Source{Name: name, Project: svc.Project, Policy: svc.Policy, Listing: got}
	if err != nil {
		stored.Err = errors.New(l.opts.Masker.Literal(err.Error()))
	}
	l.listMu.Lock()
	sl := l.slots[name]
	if sl == nil {
		l.listMu.Unlock()
		return // removed by a reload meanwhile
	}
	sl.listing = stored
	if err != nil {
		sl.stale = true // try again at the next need
	}
	l.listMu.Unlock()
	l.Rebuild()
}

// Rebuild aggregates the stored listings into a new catalogue, publishes
// it and wakes whoever waits for one.
func (l *Lister) Rebuild() {
	l.buildMu.Lock()
	defer l.buildMu.Unlock()
	services := l.opts.Services()
	l.listMu.Lock()
	listings := make([]catalog.Source, 0, len(services))
	for _, s := range services {
		if sl := l.slots[s.Name]; sl != nil && sl.listing != nil {
			stored := *sl.listing
			stored.Project, stored.Policy = s.Project, s.Policy
			listings = append(listings, stored)
		}
	}
	l.listMu.Unlock()
	c := catalog.Build(l.opts.Masker, listings)
	c.InheritTokens(l.cat.Load())
	l.cat.Store(c)
	l.opts.Built(c)
	l.cache()
	l.listMu.Lock()
	close(l.changed)
	l.changed = make(chan struct{})
	l.listMu.Unlock()
}

// Invalidate marks listings stale: every service's when names is empty.
// Once a client has seen the catalogue, the stale ones are listed again
// now so that sessions are told what changed.
func (l *Lister) Invalidate(why string, names ...string) {
	l.opts.Note(why)
	l.listMu.Lock()
	if len(names) == 0 {
		for _, s := range l.slots {
			s.stale = true
		}
	}
	for _, n := range names {
		if s := l.slots[n]; s != nil {
			s.stale = true
		}
	}
	l.listMu.Unlock()
	if l.seen.Load() {
		l.opts.Go(func() { l.refreshNeeded() })
	}
}

// Forget drops the listings of services no longer offered.
func (l *Lister) Forget(offered map[string]bool) {
	l.listMu.Lock()
	for n := range l.slots {
		if !offered[n] {
			delete(l.slots, n)
		}
	}
	l.listMu.Unlock()
}

package hub

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/chronicle-dev/chronicle/hub/catalog"
	"golang.org/x/sync/singleflight"
)

// ListGrace is how long a session's first list waits for upstreams that
// have not been listed yet; what arrives later is announced with
// list_changed.
const ListGrace = 3 * time.Second

// The catalogue is the hub's, not a caller's: every upstream is listed on
// its own, under the hub's lifetime and its own timeout, one listing per
// service at a time (single-flighted), so a slow or stuck upstream delays
// only itself and a client that goes away cancels nothing but its wait.
// Each completed listing rebuilds the one Catalogue every endpoint reads.

// A listingSlot is what the hub knows of one service's listing.
type listingSlot struct {
	listing *catalog.ServiceListing // nil until first listed
	stale   bool                    // list again at the next need
}

// catalog returns the current catalog. Services never listed, or whose
// listing went stale, are listed in the background; the call waits for the
// never-listed ones until they arrive, ctx ends or the grace period passes,
// and then answers with what it has.
func (h *Hub) catalog(ctx context.Context) *catalog.Catalog {
	h.seen.Store(true)
	missing := h.refreshNeeded()
	if missing > 0 {
		grace := time.NewTimer(h.opts.ListGrace)
		defer grace.Stop()
		for missing > 0 {
			h.listMu.Lock()
			changed := h.changed
			h.listMu.Unlock()
			if missing = h.unlisted(); missing == 0 {
				break
			}
			select {
			case <-changed:
			case <-grace.C:
				missing = 0
			case <-ctx.Done():
				missing = 0
			case <-h.ctx.Done():
				missing = 0
			}
		}
	}
	if c := h.cat.Load(); c != nil {
		return c
	}
	return emptyCatalog
}

// emptyCatalog stands in before the first build.
var emptyCatalog = catalog.Build(nil, nil)

// refreshNeeded starts a listing of every service that needs one and
// returns how many services have never been listed.
func (h *Hub) refreshNeeded() int {
	h.mu.Lock()
	projects := h.projects
	h.mu.Unlock()
	missing := 0
	for _, p := range projects {
		h.listMu.Lock()
		slot := h.slots[p.Name]
		if slot == nil {
			slot = &listingSlot{stale: true}
			h.slots[p.Name] = slot
		}
		need, unlisted := slot.stale, slot.listing == nil
		h.listMu.Unlock()
		if unlisted {
			missing++
		}
		if need {
			h.refresh(p.Name)
		}
	}
	return missing
}

// unlisted counts the offered services the published catalogue holds no
// listing of yet: a listing stored but not yet built into a catalogue
// still counts, so a waiter never answers with a catalogue older than what
// it waited for.
func (h *Hub) unlisted() int {
	h.mu.Lock()
	projects := h.projects
	h.mu.Unlock()
	cat := h.cat.Load()
	n := 0
	for _, p := range projects {
		if cat == nil {
			n++
			continue
		}
		if _, ok := cat.Projects[p.Name]; !ok {
			n++
		}
	}
	return n
}

// refresh lists one service in the background, unless a listing of it is
// already under way.
func (h *Hub) refresh(name string) {
	h.goTracked(func() {
		_, _, _ = h.flight.Do(name, func() (any, error) {
			h.list(name)
			return nil, nil
		})
	})
}

// goTracked runs fn in a goroutine that Close waits for; after Close it
// does nothing.
func (h *Hub) goTracked(fn func()) {
	h.closeMu.Lock()
	defer h.closeMu.Unlock()
	if h.closed {
		return
	}
	h.wg.Go(fn)
}

// list lists one service under the hub's lifetime and stores the outcome,
// unless it failed because the hub is closing.
func (h *Hub) list(name string) {
	h.mu.Lock()
	b, policy := h.backends[name], h.policies[name]
	project := ""
	for _, p := range h.projects {
		if p.Name == name {
			project = p.Project
		}
	}
	h.mu.Unlock()
	if b == nil {
		return
	}
	h.listMu.Lock()
	if slot := h.slots[name]; slot != nil {
		slot.stale = false
	}
	h.listMu.Unlock()

	ctx, cancel := context.WithTimeout(h.ctx, h.opts.ListTimeout)
	l, err := b.List(ctx)
	cancel()
	if err != nil && (h.ctx.Err() != nil || errors.Is(err, context.Canceled)) {
		h.listMu.Lock()
		if slot := h.slots[name]; slot != nil {
			slot.stale = true
		}
		h.listMu.Unlock()
		return // cancelled, not failed: never stored
	}
	sl := &catalog.ServiceListing{Name: name, Project: project, Policy: policy, Listing: l}
	if err != nil {
		sl.Err = errors.New(h.masker.Literal(err.Error()))
	}
	h.listMu.Lock()
	slot := h.slots[name]
	if slot == nil {
		h.listMu.Unlock()
		return // removed by a reload meanwhile
	}
	slot.listing = sl
	if err != nil {
		slot.stale = true // try again at the next need
	}
	h.listMu.Unlock()
	h.rebuild()
}

// rebuild aggregates the stored listings into a new catalogue, publishes it
// and wakes whoever waits for one.
func (h *Hub) rebuild() {
	h.buildMu.Lock()
	defer h.buildMu.Unlock()
	h.mu.Lock()
	projects, policies := h.projects, h.policies
	h.mu.Unlock()
	h.listMu.Lock()
	listings := make([]catalog.ServiceListing, 0, len(projects))
	for _, p := range projects {
		if s := h.slots[p.Name]; s != nil && s.listing != nil {
			l := *s.listing
			l.Project, l.Policy = p.Project, policies[p.Name]
			listings = append(listings, l)
		}
	}
	h.listMu.Unlock()
	c := catalog.Build(h.masker, listings)
	c.InheritTokens(h.cat.Load())
	h.cat.Store(c)
	h.register(c)
	h.cacheCatalog()
	h.listMu.Lock()
	close(h.changed)
	h.changed = make(chan struct{})
	h.listMu.Unlock()
}

// invalidate marks listings stale: every service's when names is empty.
// Once a client has seen the catalogue, the stale ones are listed again now
// so that sessions are told what changed.
func (h *Hub) invalidate(why string, names ...string) {
	h.inspector.Note("", why)
	h.listMu.Lock()
	if len(names) == 0 {
		for _, s := range h.slots {
			s.stale = true
		}
	}
	for _, n := range names {
		if s := h.slots[n]; s != nil {
			s.stale = true
		}
	}
	h.listMu.Unlock()
	if h.seen.Load() {
		h.goTracked(func() { h.refreshNeeded() })
	}
}

// forget drops the listings of services no longer offered.
func (h *Hub) forget(offered map[string]bool) {
	h.listMu.Lock()
	for n := range h.slots {
		if !offered[n] {
			delete(h.slots, n)
		}
	}
	h.listMu.Unlock()
}

// closeListings ends every listing and waits for their goroutines.
func (h *Hub) closeListings() {
	h.closeMu.Lock()
	h.closed = true
	h.closeMu.Unlock()
	h.cancel()
	h.wg.Wait()
}

// listingState is embedded in Hub: the state of the catalogue pipeline.
type listingState struct {
	ctx    context.Context // the hub's lifetime
	cancel context.CancelFunc
	wg     sync.WaitGroup
	flight singleflight.Group

	closeMu sync.Mutex
	closed  bool

	listMu  sync.Mutex
	slots   map[string]*listingSlot
	changed chan struct{} // closed and replaced at each rebuild

	buildMu sync.Mutex // serialises rebuilds, so catalogues publish in order
}

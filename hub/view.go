package hub

import (
	"context"
	"strings"
	"sync"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/hub/search"
)

// A view is what one endpoint offers of a catalogue: the tools of the
// services it may use that policy allows and its profile matches, the mode
// it lists them in, what it lists, and a search index over exactly the
// offered tools (built on the first search), so that disabled and
// out-of-scope tools are never found. Views are cached on their catalogue,
// so each is built once per catalogue change.
type view struct {
	reach   reach
	mode    string         // exposure.All or exposure.Search, auto decided
	offered []*exposedTool // by exposed name
	offers  map[string]bool
	listed  map[string]bool // the offered tools it lists
	index   func() *search.Index
}

// viewOf returns the catalogue and the view a request sees. It is on every
// call's path (mcp-go filters the called tool): the view is found by where
// the request came from, without working out its scope again.
func (h *Hub) viewOf(ctx context.Context) (*Catalogue, *view) {
	cat := h.current()
	w := h.whereOf(ctx)
	h.mu.Lock()
	k := whereKey{gen: h.expose.gen, where: w}
	h.mu.Unlock()
	if v, ok := cat.byWhere.Load(k); ok {
		return cat, v.(*view)
	}
	v := h.viewIn(cat, h.reachOf(k.where))
	cat.byWhere.Store(k, v)
	return cat, v
}

// current returns the current catalogue, or before the first build the
// hub's own empty one (its own: views are cached on it).
func (h *Hub) current() *Catalogue {
	if cat := h.cat.Load(); cat != nil {
		return cat
	}
	return h.empty
}

// A whereKey finds a view under the settings of one reload: the scope and
// profile a where stands for change only with a reload.
type whereKey struct {
	gen uint64
	where
}

// viewIn returns the view of a reach in cat, building it on first use.
func (h *Hub) viewIn(cat *Catalogue, r reach) *view {
	key := r.key()
	if v, ok := cat.views.Load(key); ok {
		return v.(*view)
	}
	v := &view{reach: r, offers: map[string]bool{}, listed: map[string]bool{}}
	if !r.unknown {
		for _, t := range cat.sortedTools() {
			if r.services[t.Service] && !t.Blocked && t.Hidden() == "" && r.profile.HasTool(exposure.FullName(t.Service, t.Name)) {
				v.offered = append(v.offered, t)
				v.offers[t.Exposed] = true
			}
		}
	}
	v.mode = r.cfg.settings.ModeFor(r.profile)
	if r.service != "" {
		v.mode = exposure.All // a service endpoint is the server itself: no search
	} else if v.mode == exposure.Auto {
		v.mode = h.decideAuto(r, h.tokensOf(v.offered))
	}
	for _, t := range v.offered {
		if r.cfg.settings.Lists(v.mode, exposure.FullName(t.Service, t.Name)) {
			v.listed[t.Exposed] = true
		}
	}
	v.index = sync.OnceValue(func() *search.Index { return search.NewIndex(docsOf(v.offered)) })
	actual, _ := cat.views.LoadOrStore(key, v)
	return actual.(*view)
}

// decideAuto picks an auto endpoint's mode for a catalogue whose offered
// tools cost tokens, with hysteresis on the mode it used last (kept for
// the hub's lifetime, across catalogues and reloads).
func (h *Hub) decideAuto(r reach, tokens int) string {
	key := r.autoKey()
	prev := ""
	if m, ok := h.autoModes.Load(key); ok {
		prev = m.(string)
	}
	mode := exposure.Decide(prev, tokens, r.cfg.settings.Limit())
	h.autoModes.Store(key, mode)
	if prev != "" && prev != mode {
		h.inspector.Note("", "auto exposure: "+describeReach(r)+" switched from "+prev+" to "+mode)
	}
	return mode
}

// describeReach names an endpoint for people.
func describeReach(r reach) string {
	if r.profile != nil {
		return "profile " + r.profile.Name
	}
	return "the hub's endpoint"
}

// docsOf returns the tools as the search index ranks them: the exposed name,
// the upstream's own name and title, and the description without the
// "[service] " prefix the hub lists (the service is a field of its own).
func docsOf(tools []*exposedTool) []search.Doc {
	docs := make([]search.Doc, 0, len(tools))
	for _, t := range tools {
		title := t.Tool.Title
		if title == "" {
			title = t.Tool.Annotations.Title
		}
		docs = append(docs, search.Doc{
			Name: t.Exposed, Service: t.Service, Tool: t.Name, Title: title,
			Description: strings.TrimPrefix(t.Tool.Description, "["+t.Service+"] "),
			InputSchema: t.Tool.RawInputSchema,
		})
	}
	return docs
}

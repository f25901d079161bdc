package hub

import (
	"context"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/hub/catalog"
)

// viewOf returns the catalogue and the view a request sees. It is on every
// call's path (mcp-go filters the called tool): the view is found by where
// the request came from, without working out its scope again.
func (h *Hub) viewOf(ctx context.Context) (*catalog.Catalog, *catalog.View) {
	cat := h.lister.Current()
	w := h.whereOf(ctx)
	k := catalog.WhereKey{Gen: h.settings().expose.Gen, Where: w}
	return cat, cat.ViewFor(k, h.reachOf, h.decideAuto)
}

// decideAuto picks an auto endpoint's mode for a catalogue whose offered
// tools cost tokens, with hysteresis on the mode it used last (kept for
// the hub's lifetime, across catalogues and reloads).
func (h *Hub) decideAuto(r catalog.Reach, tokens int) string {
	key := r.AutoKey()
	prev := ""
	if m, ok := h.autoModes.Load(key); ok {
		prev = m.(string)
	}
	mode := exposure.Decide(prev, tokens, r.Exposure.Settings.Limit())
	h.autoModes.Store(key, mode)
	if prev != "" && prev != mode {
		h.inspector.Note("", "auto exposure: "+catalog.DescribeReach(r)+" switched from "+prev+" to "+mode)
	}
	return mode
}

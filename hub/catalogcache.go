package hub

import (
	"time"

	cachefile "github.com/chronicle-dev/chronicle/engine/catalog"
	"github.com/chronicle-dev/chronicle/hub/catalog"
)

// The HTTP hub keeps the catalogue cache (engine/catalog) so that plan,
// scan and `chronicle tools` can tell what a tool will see, and what it
// costs, without a running hub and without the tokenizer. Each rebuilt
// catalogue marks the cache dirty; one writer, started on the first
// rebuild, writes the latest catalogue (so a burst of listings makes few
// writes) until the hub closes.

// cacheCatalog asks the writer to write the current catalogue.
func (h *Hub) cacheCatalog() {
	if h.opts.CatalogPath == "" {
		return
	}
	h.cacheOnce.Do(func() {
		h.cacheDirty = make(chan struct{}, 1)
		h.goTracked(h.writeCache)
	})
	select {
	case h.cacheDirty <- struct{}{}:
	default: // a write is pending: it takes the latest catalogue
	}
}

// writeCache writes the catalogue each time it is marked dirty; when the
// hub closes it writes a pending catalogue before it returns (Close waits
// for it), so the last listing of a hub that is stopped is kept.
func (h *Hub) writeCache() {
	for {
		select {
		case <-h.ctx.Done():
			select {
			case <-h.cacheDirty:
				if err := h.saveCache(h.cat.Load()); err != nil {
					h.log.Warn("catalogue cache", "path", h.opts.CatalogPath, "error", h.masker.Text(err.Error()))
				}
			default:
			}
			return
		case <-h.cacheDirty:
		}
		if err := h.saveCache(h.cat.Load()); err != nil {
			h.log.Warn("catalogue cache", "path", h.opts.CatalogPath, "error", h.masker.Text(err.Error()))
		}
		if h.cacheWritten != nil {
			select {
			case h.cacheWritten <- struct{}{}:
			case <-h.ctx.Done():
			}
		}
	}
}

// saveCache merges the listings of cat into the cache: every service
// listed without error, with each tool it offers (whatever the policy, but
// not the tools the hub cannot call at all) and its token cost.
func (h *Hub) saveCache(cat *catalog.Catalog) error {
	if cat == nil {
		return nil
	}
	h.mu.Lock()
	declared := map[string]bool{}
	for _, p := range h.projects {
		declared[p.Name] = true
	}
	h.mu.Unlock()
	now := time.Now().UTC()
	listed := map[string]cachefile.Listing{}
	for name := range cat.Projects {
		if _, failed := cat.Errors[name]; !failed {
			listed[name] = cachefile.Listing{Listed: now, Tools: []cachefile.Tool{}}
		}
	}
	for _, t := range cat.SortedTools() {
		s, ok := listed[t.Service]
		if !ok || t.Hidden() != "" {
			continue
		}
		s.Tools = append(s.Tools, cachefile.Tool{
			Name: t.Name, Exposed: t.Exposed, Description: t.Tool.Description,
			InputSchema: t.Tool.RawInputSchema, Tokens: cat.ToolTokens(t),
		})
		listed[t.Service] = s
	}
	return cachefile.Merge(h.opts.CatalogPath, listed, declared, metaTokens())
}

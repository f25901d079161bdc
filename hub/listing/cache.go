package listing

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

// cache asks the writer to write the current catalogue.
func (l *Lister) cache() {
	if l.opts.CachePath == "" {
		return
	}
	l.cacheOnce.Do(func() {
		l.cacheDirty = make(chan struct{}, 1)
		l.opts.Go(l.writeCache)
	})
	select {
	case l.cacheDirty <- struct{}{}:
	default: // a write is pending: it takes the latest catalogue
	}
}

// writeCache writes the catalogue each time it is marked dirty; when the
// hub closes it writes a pending catalogue before it returns (Close waits
// for it), so the last listing of a hub that is stopped is kept.
func (l *Lister) writeCache() {
	for {
		select {
		case <-l.opts.Context.Done():
			select {
			case <-l.cacheDirty:
				if err := l.saveCache(l.cat.Load()); err != nil {
					l.opts.Log.Warn("catalogue cache", "path", l.opts.CachePath, "error", l.opts.Masker.Text(err.Error()))
				}
			default:
			}
			return
		case <-l.cacheDirty:
		}
		if err := l.saveCache(l.cat.Load()); err != nil {
			l.opts.Log.Warn("catalogue cache", "path", l.opts.CachePath, "error", l.opts.Masker.Text(err.Error()))
		}
		if l.CacheWritten != nil {
			select {
			case l.CacheWritten <- struct{}{}:
			case <-l.opts.Context.Done():
			}
		}
	}
}

// saveCache merges the listings of cat into the cache: every service
// listed without error, with each tool it offers (whatever the policy, but
// not the tools the hub cannot call at all) and its token cost.
func (l *Lister) saveCache(cat *catalog.Catalog) error {
	if cat == nil {
		return nil
	}
	declared := map[string]bool{}
	for _, s := range l.opts.Services() {
		declared[s.Name] = true
	}
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
	return cachefile.Merge(l.opts.CachePath, listed, declared, l.opts.MetaTokens())
}

package upstream

import (
	"context"
	"sync"
)

// ListAll lists the catalog of every enabled upstream, in parallel (at most
// PoolOptions.Parallel at once), each bounded by its start timeout plus its
// call timeout. A service that cannot be listed gets a Catalog with Err set;
// it never blanks the others.
func (p *Pool) ListAll(ctx context.Context) map[string]Catalog {
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		out = map[string]Catalog{}
		sem = make(chan struct{}, p.opts.Parallel)
	)
	for _, u := range p.sorted() {
		if !u.spec.Enabled {
			continue
		}
		wg.Go(func() {
			var c Catalog
			select {
			case sem <- struct{}{}:
				ctx, cancel := context.WithTimeout(ctx, p.opts.StartTimeout+u.Timeout())
				c, _ = u.Catalog(ctx)
				cancel()
				<-sem
			case <-ctx.Done():
				c = Catalog{Service: u.spec.Name, Err: u.errorf("not listed: %w", ctx.Err())}
			}
			mu.Lock()
			out[u.spec.Name] = c
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

package gitsync

import (
	"context"
	"fmt"
)

// replace makes the checkout follow another URL. Without o.Reset it
// refuses. With it, the old checkout must lose nothing: a clean tree and a
// HEAD contained in the old remote branch as last fetched (no network to
// the old remote is needed); the new clone is complete before the old
// checkout is removed.
func (c *checkout) replace(ctx context.Context, o SyncOptions) (*SyncResult, error) {
	if !o.Reset {
		return nil, fmt.Errorf("%s follows %s, not %s: refusing to switch repositories without a reset (chronicle sync --reset), which replaces the checkout", c.dir, c.url, o.URL)
	}
	if err := c.checkClean(); err != nil {
		return nil, err
	}
	if err := c.checkContained(c.remoteTip(c.branch), "origin/"+c.branch); err != nil {
		return nil, fmt.Errorf("keeping the checkout of %s (origin/%s as last fetched): %w", c.url, c.branch, err)
	}
	res, err := clone(ctx, o)
	if err != nil {
		return nil, err
	}
	res.OldSHA = c.head.Hash.String()
	return res, nil
}

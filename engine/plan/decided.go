package plan

import "github.com/chronicle-dev/chronicle/engine/own"

// decided puts the ledger's decision into a change.
func (b *builder) decided(c *Change, d own.Decision) {
	c.Action, c.Reason, c.Diff = d.Action, d.Reason, d.Diff
}

// ignored reports whether this machine leaves addr alone
// (~/.chronicle/machine.hcl's ignore).
func (b *builder) ignored(addr string) bool { return b.in.Ignore[addr] }

package plan

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// serviceHubEntry plans a service a link sends through the hub (hub =
// "per-service"): one entry named as the service, served by the hub's
// endpoint for it alone, so the tool sees the server's own tool names and
// its permission rules (mcp__github__create_issue) keep working, while
// the hub's policies, masking and inspector apply (decision 0175). A
// service the hub does not serve — disabled, or disabled by its policy —
// gets no entry, and one written before is removed, as a direct entry
// would be.
func (b *builder) serviceHubEntry(l *config.Link, tool, name string, p provider.Provider) {
	if svc := b.cfg.Service(name); svc != nil { // nil: chronova, which the hub serves too
		policy := b.policy(name)
		if !svc.Enabled || (policy != nil && policy.Enabled != nil && !*policy.Enabled) {
			return
		}
	}
	b.hubEntry(l, tool, p, name)
}

// hubServiceAddress reports whether addr is a per-service hub entry's
// (link.L["tool"].hub.NAME).
func hubServiceAddress(addr string) bool {
	_, rest, ok := strings.Cut(addr, "].")
	return ok && strings.HasPrefix(rest, "hub.")
}

// sameName reports, for an entry about to claim its place at key, a
// different address already writing an entry of that name there where
// one of the two goes through the hub (a per-service hub entry) and the
// other does not: a tool cannot hold both, and neither may silently win.
// It says so in a plan error naming both, and reports whether it did.
func (b *builder) sameName(addr, key, name, tool string) bool {
	other := b.entryClaims[key]
	if other == "" || other == addr || hubServiceAddress(other) == hubServiceAddress(addr) {
		return false
	}
	direct, hub := other, addr
	if hubServiceAddress(other) {
		direct, hub = addr, other
	}
	b.diag("error", addr, "Two entries of one name", "%s and %s both write the entry %q into %s's file: one writes the service directly, the other through the hub. Keep one: drop %q from one link's services.", direct, hub, name, tool, name)
	return true
}

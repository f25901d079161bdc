package plan

import (
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/own"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// An entrySubject is a service's entry in a tool's MCP config, as the
// ownership ledger sees it: what chronicle owns of it is its projection
// (own.EntryProjection), the keys chronicle models and the extra keys it
// wrote, never the keys the tool added.
type entrySubject struct {
	b        *builder
	addr     string
	tool     string
	p        provider.Provider
	want     provider.Entry
	rendered []byte
	// found is the entry as the tool's file holds it (nil: absent), and
	// resolved the same with project paths resolved, as it is compared.
	found, resolved *provider.Entry
	// owned are the extra keys of chronicle's projection: those it wrote
	// (or would write, when it wrote none); shown those a diff shows.
	owned, shown []string
}

func (s entrySubject) What() string { return fmt.Sprintf("%s's entry %q", s.tool, s.want.Name) }

func (s entrySubject) Seen() own.Seen {
	if s.found == nil {
		return own.Seen{Absent: true}
	}
	seen := own.Seen{Hash: own.EntryHash(s.p, *s.found, s.owned)}
	if s.resolved != nil { // a removal has no declared version
		seen.Declared = s.b.holds(s.p, s.want, *s.resolved)
	}
	return seen
}

func (s entrySubject) Diff() string {
	return s.b.entryDiff(s.addr, s.p, *s.resolved, s.rendered, s.shown)
}

// asIs is what import takes over of an entry that is not the declared one:
// an entry holding the declared secret in plain text is recorded, and the
// next apply writes the reference.
func (s entrySubject) asIs() own.AsIs {
	if s.resolved != nil && s.want.Definition.Resolves(s.resolved.Definition) && sameRest(s.want, *s.resolved) && HoldsTimeout(s.p, s.want, *s.resolved) {
		return own.RewriteAsIs
	}
	return own.NotAsIs
}

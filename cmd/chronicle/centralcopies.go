package main

import (
	"github.com/chronicle-dev/chronicle/engine/cores"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hashcache"
	"github.com/chronicle-dev/chronicle/engine/plan"
)

// rememberCentralCopies hashes the central copies apply wrote for p (its
// skill changes) through the skill hash cache, once they are written: the
// cache records their file sums (by its rule, the files settled by then),
// and the plans that follow take the Before of these copies from it
// instead of reading every file of every copy. The reading moves from
// every plan after an apply to the apply itself (decision 0140). Nothing
// is recorded without a cache (apply of a saved plan).
func rememberCentralCopies(hashes *hashcache.Cache, p *plan.Plan) {
	if hashes == nil {
		return
	}
	var dirs []string
	for _, c := range p.Changes {
		if c.Kind == plan.KindSkill && c.Skill != nil && c.Action.Changes() {
			dirs = append(dirs, c.Skill.Store)
		}
	}
	h := hashes.Hasher(fsys.ReadOnly(fsys.OS{}))
	cores.Each(len(dirs), func(i int) { _, _ = h.Hash(dirs[i]) })
}

package apply

import (
	"runtime"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/cores"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// concurrentWorkers is how many imports or links are made at once: one per
// core. The work is mostly the kernel's (creating folders, files and
// links, all in the same few parent folders); more workers than cores only
// contend for those folders (measured: docs/decisions/0050).
var concurrentWorkers = runtime.GOMAXPROCS(0)

// fileWorkers is how many tool files are written at once.
const fileWorkers = 16

// concurrent reports whether a step may run at the same time as its
// neighbours of the same kind: the import of a local skill into the store,
// or a new or refreshed link. Each touches only its own places (the skill's
// copy and snapshots; the link's path), and the plan gives no two changes
// the same place. Git skills (network, progress output), removals and
// replacements (the shared backup set) run alone.
func concurrent(s step) (plan.Kind, bool) {
	if len(s.file) > 0 {
		// A tool file's transaction: its own file, and the backup set
		// under its lock. The settle wait after each install overlaps.
		return kindTransaction, true
	}
	c := s.change
	switch {
	case c.Kind == plan.KindSkill && c.Skill != nil && c.Skill.Git == nil:
		return c.Kind, c.Action == plan.Create || c.Action == plan.Update || c.Action == plan.Replace
	case c.Kind == plan.KindLink && c.Link != nil:
		return c.Kind, c.Action == plan.Create || c.Action == plan.Update
	}
	return "", false
}

// kindTransaction marks the transaction steps of tool files in batches.
const kindTransaction plan.Kind = "file-transaction"

// batches groups steps: each run of consecutive concurrent steps of one
// kind becomes one batch; every other step is a batch of its own.
func batches(steps []step) [][]step {
	var out [][]step
	var kind plan.Kind
	for _, s := range steps {
		k, ok := concurrent(s)
		if ok && len(out) > 0 && kind == k {
			out[len(out)-1] = append(out[len(out)-1], s)
			continue
		}
		out = append(out, []step{s})
		if ok {
			kind = k
		} else {
			kind = ""
		}
	}
	return out
}

// runBatch carries out a batch. The filesystem work of its changes runs on
// concurrentWorkers goroutines; what they found is then recorded in the
// state in plan order, on this goroutine, so the state after a parallel
// apply is the one a sequential apply would have written. The journal
// written before any change covers them all meanwhile.
func (a *applier) runBatch(batch []step) []result {
	if _, ok := concurrent(batch[0]); !ok || len(batch) == 1 {
		var out []result
		for _, s := range batch {
			out = append(out, a.run(s)...)
		}
		return out
	}
	if kind, _ := concurrent(batch[0]); kind == kindTransaction {
		return a.runFiles(batch)
	}
	out := make([]result, len(batch))
	skillRecs := make([]state.Skill, len(batch))
	linkRecs := make([]state.Link, len(batch))
	var todo []int
	for i, s := range batch {
		if dep := a.dependency(s.change); dep != nil {
			out[i] = result{s.change, dep}
			continue
		}
		todo = append(todo, i)
	}
	cores.EachOn(len(todo), concurrentWorkers, func(k int) {
		i := todo[k]
		c := batch[i].change
		err := a.precondition(c)
		if err == nil {
			if c.Kind == plan.KindSkill {
				skillRecs[i], err = a.importSkill(c)
			} else {
				linkRecs[i], err = a.makeLink(c)
			}
		}
		out[i] = result{c, err}
	})

	var links []state.Link
	for _, i := range todo {
		c, err := out[i].change, out[i].err
		switch {
		case err != nil:
			a.fail(c, err)
		case c.Kind == plan.KindSkill:
			a.st.Skills[c.Skill.Name] = skillRecs[i]
		default:
			links = append(links, linkRecs[i])
		}
	}
	a.recordLinks(links)
	for _, i := range todo {
		if out[i].err == nil {
			out[i].err = a.done(out[i].change.Address)
		}
	}
	return out
}

// recordLinks puts the records of links just made into the state, in
// order, in place of older records at the same addresses: one pass over
// the state's links, not one per link.
func (a *applier) recordLinks(made []state.Link) {
	if len(made) == 0 {
		return
	}
	addrs := make(map[string]bool, len(made))
	for _, l := range made {
		addrs[l.Address] = true
	}
	a.st.Links = append(slices.DeleteFunc(a.st.Links, func(l state.Link) bool { return addrs[l.Address] }), made...)
}

// runFiles carries out the transactions of several tool files: their
// installs at once, then their records in plan order.
func (a *applier) runFiles(batch []step) []result {
	ts := make([]*transaction, len(batch))
	ws := make([]written, len(batch))
	for i, s := range batch {
		ts[i] = a.newTransaction(s.file)
	}
	// Mostly waiting (fsyncs, the settle look after each install): more
	// files at once than cores.
	cores.EachOn(len(ts), fileWorkers, func(i int) { ws[i] = ts[i].install() })
	var out []result
	for i, t := range ts {
		out = append(out, t.finish(ws[i])...)
	}
	return out
}

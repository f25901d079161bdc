package plan

import (
	"github.com/chronicle-dev/chronicle/engine/cores"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// A Warmup is the skill reading a plan does first, started before the
// configuration that declares the skills is known: while it parses, which
// at thousands of services keeps one core busy for a few hundred
// milliseconds. It guesses from the state: each local skill the state
// records is most likely declared again, from the same folder. It hashes
// each one's source, through the hash cache's reader, and central copy,
// through the plan's memo that never uses the cache (that hash is a Before
// observation). The plan then finds these trees hashed in the readers'
// memos — read at most the configuration's parse time earlier, as every
// read of a plan is some time before apply. A skill the configuration no
// longer declares is hashed for nothing; one it declares anew is hashed by
// the plan itself.
type Warmup struct {
	done chan struct{}
}

// StartWarmup starts the warm-up of a plan of st with hashes and observed
// (the readers the plan is given as Inputs.Hashes and Inputs.Observed) and
// the central copies in storeDir. Give it to the plan as Inputs.Warmup:
// Compute waits for it to end before it returns.
func StartWarmup(st *state.State, storeDir string, hashes, observed fsys.Reader) *Warmup {
	w := &Warmup{done: make(chan struct{})}
	var names []string
	for _, name := range sortedKeys(st.Skills) {
		if st.Skills[name].Source != "" {
			names = append(names, name)
		}
	}
	go func() {
		defer close(w.done)
		cores.Each(len(names), func(i int) {
			skills.Hash(hashes, st.Skills[names[i]].Source)
			skills.Hash(observed, storePath(storeDir, names[i]))
		})
	}()
	return w
}

// Wait returns when the warm-up is done (at once for none).
func (w *Warmup) Wait() {
	if w != nil {
		<-w.done
	}
}

package plan

import (
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/state"
)

// CheckState returns why a saved plan can no longer be applied as a whole:
// the state is another one (lineage) or changed since (serial), so the
// plan's decisions about what chronicle owns may be wrong. What is at each
// change's target is checked by apply, change by change, against Before.
func (p *Plan) CheckState(st *state.State) error {
	if p.Lineage != st.Lineage {
		return fmt.Errorf("it was made against another state (lineage %s, the state's is %s)", p.Lineage, st.Lineage)
	}
	if p.Serial != st.Serial {
		return fmt.Errorf("the state changed since it was made (serial %d, now %d)", p.Serial, st.Serial)
	}
	return nil
}

package plan

import (
	"fmt"
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/state"
)

// CheckFresh returns why a saved plan can no longer be applied: the state
// is another one (lineage) or changed since (serial), or a file or folder
// the plan read holds something else now.
func (p *Plan) CheckFresh(st *state.State) error {
	if p.Lineage != st.Lineage {
		return fmt.Errorf("it was made against another state (lineage %s, the state's is %s)", p.Lineage, st.Lineage)
	}
	if p.Serial != st.Serial {
		return fmt.Errorf("the state changed since it was made (serial %d, now %d)", p.Serial, st.Serial)
	}
	paths := make([]string, 0, len(p.Sources))
	for path := range p.Sources {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		want := p.Sources[path]
		got := PathHash(path)
		if strings.HasPrefix(got, "link:") && !strings.HasPrefix(want, "link:") {
			got = fileHash(path) // a config file kept as a symlink: its content counts
		}
		if got != want {
			return fmt.Errorf("%s changed since it was made", path)
		}
	}
	return nil
}

package plan

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// FormatVersion is the version of the saved plan format and of --json lines.
// Version 2 records each change's Before; plans of version 1 are refused.
const FormatVersion = 2

// A Plan is the result of planning: data that can be shown, saved and applied.
type Plan struct {
	FormatVersion int    `json:"plan_format"`
	Chronicle     string `json:"chronicle"`
	// Lineage and Serial are the state's when the plan was made: a saved plan
	// made against another state, or an older serial, is stale.
	Lineage   string `json:"lineage"`
	Serial    uint64 `json:"serial"`
	ConfigDir string `json:"config_dir"`
	// Machine is the name of the machine the plan was computed for
	// (machine.name): a saved plan is applied on that machine only.
	Machine   string      `json:"machine,omitempty"`
	Changes   []Change    `json:"changes"`
	Unmanaged []Unmanaged `json:"unmanaged,omitempty"`
	// Diagnostics are the plan's own problems and warnings; errors mean the
	// plan cannot be applied.
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	// ConfigWarnings are the configuration's warnings, shown as validate
	// shows them. They are not saved.
	ConfigWarnings hcl.Diagnostics `json:"-"`
	// Replace lists the --replace addresses the plan honours.
	Replace []string `json:"replace,omitempty"`
	// Destroy says the plan may remove everything chronicle manages.
	Destroy bool `json:"destroy,omitempty"`
	// Offline says git skills were not checked against their remotes.
	Offline bool `json:"offline,omitempty"`
	// Context says, for each tool a link writes the hub into, what that
	// tool will see through the hub and what it costs.
	Context []ContextCost `json:"context,omitempty"`
}

// An Unmanaged item is something a tool has that the configuration does not
// mention: information, never a change.
type Unmanaged struct {
	Tool    string `json:"tool"`
	Scope   string `json:"scope"`
	Project string `json:"project,omitempty"`
	Kind    string `json:"kind"` // service or skill
	Name    string `json:"name"`
	Status  string `json:"status"`
	File    string `json:"file,omitempty"`
}

// A Diagnostic is a problem found while planning. An error means an item the
// plan cannot carry out: apply refuses the plan. A note says what this
// machine leaves out and why (a tool not present, a project folder
// missing): information, never a problem.
type Diagnostic struct {
	Severity string `json:"severity"` // error, warning or note
	Summary  string `json:"summary"`
	Detail   string `json:"detail,omitempty"`
	Address  string `json:"address,omitempty"`
}

// A Summary counts the changes as the summary line shows them.
type Summary struct {
	Add      int `json:"add"`
	Change   int `json:"change"`
	Remove   int `json:"remove"`
	Conflict int `json:"conflict"`
}

// Summary counts the plan's changes: a replace is one add and one remove,
// a conflict counts as a conflict, and read notes never count.
func (p *Plan) Summary() Summary {
	var s Summary
	for _, c := range p.Changes {
		a, ch, r, k := c.counts()
		s.Add += a
		s.Change += ch
		s.Remove += r
		s.Conflict += k
	}
	return s
}

// HasChanges reports whether apply would do anything (or refuse to).
func (p *Plan) HasChanges() bool {
	s := p.Summary()
	return s.Add+s.Change+s.Remove+s.Conflict > 0
}

// Errors returns the error diagnostics.
func (p *Plan) Errors() []Diagnostic {
	var out []Diagnostic
	for _, d := range p.Diagnostics {
		if d.Severity == "error" {
			out = append(out, d)
		}
	}
	return out
}

// Conflicts returns the changes marked !.
func (p *Plan) Conflicts() []Change {
	var out []Change
	for _, c := range p.Changes {
		if c.Action == Conflict {
			out = append(out, c)
		}
	}
	return out
}

// Has reports whether the plan has a change at addr.
func (p *Plan) Has(addr string) bool {
	for _, c := range p.Changes {
		if c.Address == addr {
			return true
		}
	}
	return false
}

// ErrNotSaved says a plan with errors cannot be saved: it could not be
// applied anyway.
var ErrNotSaved = errors.New("the plan has errors; it was not saved")

// Save writes the plan to path (0600: it names files and references, never
// secrets, but it describes the machine). A plan with errors is not saved.
func (p *Plan) Save(sys fsys.System, path string) error {
	if len(p.Errors()) > 0 {
		return ErrNotSaved
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return sys.WriteFile(path, append(b, '\n'), 0o600)
}

// Load reads a saved plan. A plan of another format is refused: one made
// before changes recorded what they saw cannot be applied safely.
func Load(r fsys.Reader, path string) (*Plan, error) {
	b, err := r.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var head struct {
		FormatVersion *int `json:"plan_format"`
	}
	if err := json.Unmarshal(b, &head); err != nil || head.FormatVersion == nil {
		return nil, fmt.Errorf("%s is not a chronicle plan", path)
	}
	if *head.FormatVersion != FormatVersion {
		return nil, fmt.Errorf("%s is a plan of format %d; this chronicle applies format %d only: re-run chronicle plan", path, *head.FormatVersion, FormatVersion)
	}
	var p Plan
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s is not a chronicle plan: %w", path, err)
	}
	return &p, nil
}

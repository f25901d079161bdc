package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/plan"
)

// A planView renders a plan for people, in Terraform's style.
type planView struct {
	w     io.Writer
	home  string
	color bool
	// allUnmanaged lists every unmanaged item; otherwise the first
	// unmanagedShown and one line of counts (plan --unmanaged).
	allUnmanaged bool
	// header is the first line: the machine planned for (Facts.Header).
	header string
}

// unmanagedShown is how many unmanaged items a plan lists before it sums up
// the rest: a machine with thousands of the user's own entries would
// otherwise bury the plan under them.
const unmanagedShown = 20

func (v planView) paint(code, s string) string {
	if !v.color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (v planView) symbol(a plan.Action) string {
	s := fmt.Sprintf("%3s", a.Symbol())
	switch a {
	case plan.Create:
		return v.paint("32", s)
	case plan.Update:
		return v.paint("33", s)
	case plan.Delete, plan.Replace:
		return v.paint("31", s)
	case plan.Conflict:
		return v.paint("1;31", s)
	}
	return s
}

func (v planView) render(p *plan.Plan) {
	if v.header != "" {
		fmt.Fprintln(v.w, v.header)
		fmt.Fprintln(v.w)
	}
	var shown []plan.Change
	for _, c := range p.Changes {
		if c.Action != plan.NoOp {
			shown = append(shown, c)
		}
	}
	if p.HasChanges() {
		fmt.Fprintln(v.w, "chronicle will perform the following actions (! marks what it will not do):")
		fmt.Fprintln(v.w)
	}
	for _, c := range shown {
		if c.Action == plan.Ignore {
			// One line: the address, and that this machine leaves it alone.
			fmt.Fprintf(v.w, "%s %s %s\n", v.symbol(c.Action), c.Address, c.Reason)
			continue
		}
		fmt.Fprintf(v.w, "%s %s\n", v.symbol(c.Action), c.Address)
		if c.From != "" {
			// Where a for_each instance comes from, as a comment.
			fmt.Fprintf(v.w, "      %s\n", v.paint("2", "# "+c.From))
		}
		if d := v.detail(c); d != "" {
			fmt.Fprintf(v.w, "      %s\n", d)
		}
		if c.Reason != "" {
			fmt.Fprintf(v.w, "      %s\n", c.Reason)
		}
		if c.Diff != "" {
			for _, line := range strings.Split(strings.TrimRight(c.Diff, "\n"), "\n") {
				fmt.Fprintf(v.w, "      %s\n", v.diffLine(line))
			}
		}
	}
	v.diagnostics(p)
	s := p.Summary()
	if !p.HasChanges() {
		fmt.Fprintln(v.w, "No changes. This machine matches the configuration.")
	} else {
		fmt.Fprintf(v.w, "\nPlan: %d to add, %d to change, %d to remove, %d conflicts.\n", s.Add, s.Change, s.Remove, s.Conflict)
	}
	writeContext(v.w, v.home, p.Context)
	v.unmanaged(p)
}

func (v planView) diffLine(line string) string {
	switch {
	case strings.HasPrefix(line, "+") && !strings.HasPrefix(line, "+++"):
		return v.paint("32", line)
	case strings.HasPrefix(line, "-") && !strings.HasPrefix(line, "---"):
		return v.paint("31", line)
	}
	return line
}

// detail is the one line that says what a change touches.
func (v planView) detail(c plan.Change) string {
	switch {
	case c.Link != nil && c.Link.Mode == "copy":
		return fmt.Sprintf("%s (a copy of %s)", tildePath(v.home, c.Link.Path), tildePath(v.home, c.Link.Target))
	case c.Link != nil:
		return fmt.Sprintf("%s -> %s", tildePath(v.home, c.Link.Path), tildePath(v.home, c.Link.Target))
	case c.Skill != nil && c.Action != plan.Delete && c.Skill.Source == "":
		return tildePath(v.home, c.Skill.Store) // a git skill: the reason says where from
	case c.Skill != nil && c.Action != plan.Delete:
		return fmt.Sprintf("%s from %s", tildePath(v.home, c.Skill.Store), tildePath(v.home, c.Skill.Source))
	case c.Entry != nil:
		return fmt.Sprintf("entry %q in %s", c.Entry.Entry.Name, tildePath(v.home, c.Entry.Location.File))
	case c.Block != nil:
		return fmt.Sprintf("block %s in %s", c.Block.ID, tildePath(v.home, c.Block.File))
	case c.Rule != nil:
		return fmt.Sprintf("rule %q in %s %s", c.Rule.Rule, tildePath(v.home, c.Rule.List.File), strings.Join(c.Rule.List.KeyPath, "."))
	case c.Path != "":
		return tildePath(v.home, c.Path)
	}
	return ""
}

func (v planView) diagnostics(p *plan.Plan) {
	for _, d := range p.Diagnostics {
		label := v.paint("1;33", "Warning:")
		switch d.Severity {
		case plan.SeverityError:
			label = v.paint("1;31", "Error:")
		case plan.SeverityNote:
			label = v.paint("1;36", "Note:")
		}
		fmt.Fprintf(v.w, "\n%s %s\n", label, d.Summary)
		if d.Address != "" {
			fmt.Fprintf(v.w, "  at %s\n", d.Address)
		}
		if d.Detail != "" {
			fmt.Fprintf(v.w, "  %s\n", d.Detail)
		}
	}
	if len(p.Diagnostics) > 0 {
		fmt.Fprintln(v.w)
	}
}

func (v planView) unmanaged(p *plan.Plan) {
	if len(p.Unmanaged) == 0 {
		return
	}
	fmt.Fprintln(v.w, "\nNot managed by chronicle (information only; chronicle adopt takes them over):")
	shown := p.Unmanaged
	if !v.allUnmanaged && len(shown) > unmanagedShown {
		shown = shown[:unmanagedShown]
	}
	for _, u := range shown {
		fmt.Fprintf(v.w, "  %-14s %-8s %-7s %-28s %s\n", u.Tool, u.Scope, u.Kind, safeName(u.Name), u.Status)
	}
	if len(shown) < len(p.Unmanaged) {
		fmt.Fprintf(v.w, "  ... and %d more, %d in all: %s (chronicle plan --unmanaged lists them all; chronicle scan shows every tool's entries)\n",
			len(p.Unmanaged)-len(shown), len(p.Unmanaged), unmanagedCounts(p.Unmanaged))
	}
}

// unmanagedCounts counts items per tool and kind: "claude 3 services, 1
// skill; cursor 2 services", tools and kinds in alphabetical order.
func unmanagedCounts(items []plan.Unmanaged) string {
	per := map[string]map[string]int{}
	for _, u := range items {
		if per[u.Tool] == nil {
			per[u.Tool] = map[string]int{}
		}
		per[u.Tool][u.Kind]++
	}
	var tools []string
	for _, t := range slices.Sorted(maps.Keys(per)) {
		var kinds []string
		for _, k := range slices.Sorted(maps.Keys(per[t])) {
			n := per[t][k]
			kinds = append(kinds, fmt.Sprintf("%d %s", n, plural(n, k, k+"s")))
		}
		tools = append(tools, t+" "+strings.Join(kinds, ", "))
	}
	return strings.Join(tools, "; ")
}

// The JSON lines of SPEC §6, type first.
type (
	jsonVersionLine struct {
		Type       string `json:"type"`
		PlanFormat int    `json:"plan_format"`
		Chronicle  string `json:"chronicle"`
	}
	jsonChangeLine struct {
		Type    string `json:"type"`
		Address string `json:"address"`
		Action  string `json:"action"`
		Reason  string `json:"reason"`
		Path    string `json:"path"`
		// From is where a for_each instance comes from.
		From string `json:"from,omitempty"`
		// Files lists, for a skill, every file that differs from the
		// central copy.
		Files []plan.SkillFile `json:"files,omitempty"`
	}
	jsonUnmanagedLine struct {
		Type   string `json:"type"`
		Tool   string `json:"tool"`
		Scope  string `json:"scope"`
		Kind   string `json:"kind"`
		Name   string `json:"name"`
		Status string `json:"status"`
	}
	jsonDiagnosticLine struct {
		Type     string `json:"type"`
		Severity string `json:"severity"`
		Summary  string `json:"summary"`
		Detail   string `json:"detail,omitempty"`
		Address  string `json:"address,omitempty"`
	}
	jsonContextLine struct {
		Type string `json:"type"`
		plan.ContextCost
	}
	jsonSummaryLine struct {
		Type     string `json:"type"`
		Add      int    `json:"add"`
		Change   int    `json:"change"`
		Remove   int    `json:"remove"`
		Conflict int    `json:"conflict"`
	}
)

// writePlanJSON writes the plan as JSON lines (SPEC §6): a version line, one
// line per change, per unmanaged item, per diagnostic and per hub entry's
// context cost, and a summary.
func writePlanJSON(w io.Writer, p *plan.Plan, masker *mask.Masker) error {
	lines := []any{jsonVersionLine{"version", plan.FormatVersion, version}}
	for _, d := range (&diagReport{diags: p.ConfigWarnings, masker: masker}).jsonDiagnostics() {
		d.Type = "diagnostic"
		lines = append(lines, d)
	}
	for _, c := range p.Changes {
		if c.Action != plan.NoOp {
			lines = append(lines, jsonChangeLine{"change", c.Address, c.Action.String(), c.Reason, c.Path, c.From, c.SkillFiles})
		}
	}
	for _, u := range p.Unmanaged {
		lines = append(lines, jsonUnmanagedLine{"unmanaged", u.Tool, u.Scope, u.Kind, u.Name, u.Status})
	}
	for _, d := range p.Diagnostics {
		lines = append(lines, jsonDiagnosticLine{"diagnostic", d.Severity, d.Summary, d.Detail, d.Address})
	}
	for _, c := range p.Context {
		lines = append(lines, jsonContextLine{"context", c})
	}
	s := p.Summary()
	lines = append(lines, jsonSummaryLine{"summary", s.Add, s.Change, s.Remove, s.Conflict})
	for _, l := range lines {
		if err := writeJSONLine(w, l); err != nil {
			return err
		}
	}
	return nil
}

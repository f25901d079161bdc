package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/apply"
	"github.com/chronicle-dev/chronicle/engine/autostart"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/machine"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/syncstatus"
)

// An applyOutcome is what sync learns from the apply it runs: the plan's
// conflicts and what was applied and failed.
type applyOutcome struct {
	conflicts []string
	result    *apply.Result
	// err is why it stopped when the error printed says it at length
	// (the configuration's diagnostics): one line for the status file.
	err string
}

func (o *applyOutcome) planned(p *plan.Plan) {
	for _, c := range p.Conflicts() {
		o.conflicts = append(o.conflicts, c.Address)
	}
}

func (o *applyOutcome) applied(r *apply.Result) { o.result = r }

// shownAddresses is how many addresses one line names before "and N more".
const shownAddresses = 10

// appliedLine is what an apply under --skip-conflicts made, in one line.
func (o *applyOutcome) appliedLine() string {
	var addrs []string
	if o.result != nil {
		for _, c := range o.result.Applied {
			addrs = append(addrs, c.Action.Symbol()+" "+c.Address)
		}
	}
	if len(addrs) == 0 {
		return "Applied: nothing"
	}
	return fmt.Sprintf("Applied: %s: %s", count(len(addrs), "change", "changes"), addressList(addrs))
}

// leftLine is what an apply under --skip-conflicts left, in one line.
func (o *applyOutcome) leftLine() string {
	if len(o.conflicts) == 0 {
		return "Left: nothing (no conflicts)"
	}
	return fmt.Sprintf("Left: %s: %s", count(len(o.conflicts), "conflict", "conflicts"), addressList(o.conflicts))
}

func addressList(addrs []string) string {
	s := strings.Join(addrs[:min(len(addrs), shownAddresses)], ", ")
	if len(addrs) > shownAddresses {
		s += fmt.Sprintf(" and %d more", len(addrs)-shownAddresses)
	}
	return s
}

// recordSync writes how the sync ended to ~/.chronicle/sync-status.json.
// A status that cannot be written is a warning: the sync itself is done.
func (a *app) recordSync(rec *syncstatus.Status, out *applyOutcome, err error) {
	code, msg := exitOK, ""
	var exit *exitCodeError
	switch {
	case errors.As(err, &exit):
		code, msg = exit.code, exit.msg
	case err != nil:
		code, msg = exitError, err.Error()
	}
	if msg == "" {
		msg = out.err
	}
	if msg == "" && code != exitOK && !(rec.Check && code == exitChanges) {
		msg = fmt.Sprintf("exit %d: the errors are in the sync's output", code)
	}
	rec.ExitCode, rec.Meaning = code, syncstatus.Meaning(code, rec.Check)
	rec.Error = a.masker.Text(msg)
	rec.Conflicts = out.conflicts
	if ch, e := a.chronicleHome(); e == nil {
		f, _ := machine.Read(fsys.ReadOnly(fsys.OS{}), machine.Path(ch))
		rec.Machine = machine.Gather("", f).Name
	}
	if r := out.result; r != nil {
		for _, c := range r.Applied {
			switch c.Action {
			case plan.Create:
				rec.Added++
			case plan.Update:
				rec.Changed++
			case plan.Delete:
				rec.Removed++
			case plan.Replace:
				rec.Added++
				rec.Removed++
			}
		}
		for _, f := range r.Failed {
			rec.Failed = append(rec.Failed, f.Change.Address)
		}
		if len(out.conflicts) > 0 {
			rec.AppliedLine, rec.LeftLine = out.appliedLine(), out.leftLine()
		}
	}
	switch {
	case rec.Check && code == exitOK:
		rec.Outcome = syncstatus.InSync
	case rec.Check && code == exitChanges:
		rec.Outcome = syncstatus.Pending
	case code == exitOK:
		rec.Outcome = syncstatus.Applied
	case len(out.conflicts) > 0 && out.result == nil && len(rec.Failed) == 0:
		rec.Outcome = syncstatus.Conflicts
	default:
		rec.Outcome = syncstatus.Failed
	}
	ch, e := a.chronicleHome()
	if e == nil {
		e = syncstatus.Save(fsys.OS{}, syncstatus.Path(ch), rec)
	}
	if e != nil {
		fmt.Fprintf(a.stderr, "Warning: cannot record the sync's outcome: %s\n", e)
	}
}

// lastSyncWarning is the one line an interactive command prints when the
// last sync failed, or is older than three of the timer's intervals.
func (a *app) lastSyncWarning(now time.Time) string {
	ch, err := a.chronicleHome()
	if err != nil {
		return ""
	}
	sys := fsys.ReadOnly(fsys.OS{})
	st, err := syncstatus.Load(sys, syncstatus.Path(ch))
	if err != nil || st == nil {
		return ""
	}
	rec, _ := autostart.LoadRecord(sys, autostart.RecordPath(ch))
	return st.Warning(now, rec.Interval())
}

// warnLastSync prints lastSyncWarning to stderr before an interactive
// command runs. Not before sync (it writes the status), serve and chronova
// (servers), doctor, machine and autostart status (they show the status
// themselves), version and help, nor before a --json output (a program
// reads it).
func (a *app) warnLastSync(cmd *cobra.Command) {
	switch cmd.Name() {
	case "sync", "serve", "chronova", "doctor", "machine", "version", "help", "completion", cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
		return
	case "status":
		if cmd.Parent() != nil && cmd.Parent().Name() == "autostart" {
			return
		}
	}
	for c := cmd; c != nil; c = c.Parent() {
		if c.Name() == "chronova" || c.Name() == "serve" {
			return
		}
	}
	if f := cmd.Flags().Lookup("json"); f != nil && f.Value.String() == "true" {
		return
	}
	if w := a.lastSyncWarning(time.Now()); w != "" {
		fmt.Fprintln(a.stderr, w)
	}
}

// lastSync is the last sync's outcome for doctor and machine: its summary
// with how long ago, whether all is well (it did not fail, and is not
// older than three of the timer's intervals), and the status itself (nil
// when no sync ran here).
func (a *app) lastSync(now time.Time) (summary string, ok bool, st *syncstatus.Status) {
	ch, err := a.chronicleHome()
	if err != nil {
		return err.Error(), false, nil
	}
	sys := fsys.ReadOnly(fsys.OS{})
	st, err = syncstatus.Load(sys, syncstatus.Path(ch))
	switch {
	case err != nil:
		return err.Error(), false, nil
	case st == nil:
		return "none on this machine", true, nil
	}
	rec, _ := autostart.LoadRecord(sys, autostart.RecordPath(ch))
	w := st.Warning(now, rec.Interval())
	summary = st.Summary(now)
	if w != "" && st.OK() {
		summary += fmt.Sprintf("; more than %d intervals of %s ago: is the timer running? (chronicle autostart status)", syncstatus.Stale, autostart.Text(rec.Interval()))
	}
	return summary, w == "", st
}

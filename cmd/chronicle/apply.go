package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/apply"
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/machine"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/providers"
)

func (a *app) applyCommand() *cobra.Command {
	var (
		f             planFlags
		autoApprove   bool
		skipConflicts bool
		asJSON        bool
		lockTimeout   time.Duration
	)
	cmd := &cobra.Command{
		Use:   "apply [PLANFILE]",
		Short: "Make the machine match the configuration",
		Long: `apply carries out a plan: it backs up every file it will touch, copies skills into
the central store (~/.chronicle/skills), links them into the tools, writes only
the config entries it owns, and records everything in ~/.chronicle/state.json.

It shows the plan and asks for "yes" unless --auto-approve is given or PLANFILE
(from plan --out) is applied; a saved plan that no longer matches the machine
or the state is refused. With no terminal and neither of those it exits 1 at
once. Any ! conflict stops the whole apply unless --skip-conflicts. Only one
apply runs at a time (a lock on ~/.chronicle/state.lock; --lock-timeout waits).

Exit codes: 0 applied, 1 error or conflicts.`,
		Example: `  chronicle apply
  chronicle apply --auto-approve
  chronicle plan --out p.plan && chronicle apply p.plan
  chronicle apply --replace 'link.everywhere["claude"].skill.review'`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.applyRun(applyFlags{plan: f, autoApprove: autoApprove, skipConflicts: skipConflicts, asJSON: asJSON, lockTimeout: lockTimeout}, args)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&autoApprove, "auto-approve", false, "apply without asking")
	fl.BoolVar(&skipConflicts, "skip-conflicts", false, "make every change but the conflicts, and list those")
	fl.BoolVar(&asJSON, "json", false, "print JSON lines for what was applied")
	fl.StringArrayVar(&f.replace, "replace", nil, "take the declared version at `ADDR` even over drift or a conflict (repeatable)")
	fl.BoolVar(&f.destroy, "destroy", false, "allow removing everything chronicle manages")
	fl.BoolVar(&f.offline, "offline", false, "make no network call: git skills are not checked against their remotes")
	machineRenamedFlag(cmd, &f)
	lockTimeoutFlag(cmd, &lockTimeout)
	return cmd
}

// interactive reports whether a person can answer on stdin.
func (a *app) interactive() bool {
	f, ok := a.stdin.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

// confirm asks for "yes" on stdin; Ctrl-C while it waits is a no.
func (a *app) confirm(ctx context.Context) bool {
	fmt.Fprint(a.stdout, "\nDo you want to perform these actions? Only 'yes' will be accepted: ")
	answer := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(a.stdin).ReadString('\n')
		answer <- line
	}()
	select {
	case line := <-answer:
		return strings.TrimSpace(line) == "yes"
	case <-ctx.Done():
		fmt.Fprintln(a.stdout)
		return false
	}
}

func (a *app) reportChange(c plan.Change, err error, asJSON bool) {
	if asJSON {
		line := struct {
			Type    string `json:"type"`
			Address string `json:"address"`
			Action  string `json:"action"`
			Path    string `json:"path,omitempty"`
			Error   string `json:"error,omitempty"`
		}{Type: "apply", Address: c.Address, Action: c.Action.String(), Path: c.Path}
		if err != nil {
			line.Error = err.Error()
		}
		_ = writeJSONLine(a.stdout, line)
		return
	}
	if err != nil {
		fmt.Fprintf(a.stdout, "%s: failed: %s\n", c.Address, err)
		return
	}
	fmt.Fprintf(a.stdout, "%s: %s done\n", c.Address, c.Action)
}

// changeLines prints what apply did, a line per change, except the changes
// of a tool file that failed as a whole (unreadable, or being rewritten in
// place by another program): those are said once per file, after the rest,
// instead of one identical line per entry. JSON lines stay one per change.
type changeLines struct {
	a      *app
	home   string
	asJSON bool
	files  []*fileFailure // in the order they first failed
}

// A fileFailure is the changes one FileError failed.
type fileFailure struct {
	err   *apply.FileError
	addrs []string
}

func (l *changeLines) report(c plan.Change, err error) {
	var fe *apply.FileError
	if l.asJSON || !errors.As(err, &fe) {
		l.a.reportChange(c, err, l.asJSON)
		return
	}
	for _, f := range l.files {
		if f.err.File == fe.File && f.err.Err.Error() == fe.Err.Error() {
			f.addrs = append(f.addrs, c.Address)
			return
		}
	}
	l.files = append(l.files, &fileFailure{err: fe, addrs: []string{c.Address}})
}

// flush prints one line per tool file that failed as a whole.
func (l *changeLines) flush() {
	const shown = 3
	for _, f := range l.files {
		msg := f.err.Error()
		if rest, ok := strings.CutPrefix(msg, f.err.File); ok {
			msg = tildePath(l.home, f.err.File) + rest
		}
		which := strings.Join(f.addrs[:min(len(f.addrs), shown)], ", ")
		if len(f.addrs) > shown {
			which += fmt.Sprintf(" and %d more", len(f.addrs)-shown)
		}
		fmt.Fprintf(l.a.stdout, "%s: %s failed (%s)\n", msg, count(len(f.addrs), "change", "changes"), which)
	}
}

func (a *app) applySummary(r *apply.Result, asJSON bool) {
	var add, change, remove int
	for _, c := range r.Applied {
		switch c.Action {
		case plan.Create:
			add++
		case plan.Update:
			change++
		case plan.Delete:
			remove++
		case plan.Replace:
			add++
			remove++
		}
	}
	if asJSON {
		_ = writeJSONLine(a.stdout, struct {
			Type     string `json:"type"`
			Add      int    `json:"add"`
			Change   int    `json:"change"`
			Remove   int    `json:"remove"`
			Conflict int    `json:"conflict"`
			Failed   int    `json:"failed"`
		}{"applied", add, change, remove, len(r.Conflicts), len(r.Failed)})
		return
	}
	fmt.Fprintf(a.stdout, "\nApply complete! %d added, %d changed, %d removed.\n", add, change, remove)
	if len(r.Conflicts) > 0 {
		fmt.Fprintln(a.stdout, "Left alone (conflicts):")
		for _, c := range r.Conflicts {
			fmt.Fprintf(a.stdout, "  ! %s: %s\n", c.Address, c.Reason)
		}
	}
}

// applyFlags are apply's options.
type applyFlags struct {
	plan          planFlags
	autoApprove   bool
	skipConflicts bool
	asJSON        bool
	lockTimeout   time.Duration
	locked        bool // the caller holds the state lock already (sync)
	// outcome, when not nil, learns the plan's conflicts and what the
	// apply did (sync records it).
	outcome *applyOutcome
}

// applyRun is apply's work, shared with sync.
func (a *app) applyRun(o applyFlags, args []string) error {
	if len(args) == 0 && !o.autoApprove && !a.interactive() {
		return failf("apply needs a confirmation: run it from a terminal, pass --auto-approve, or apply a saved plan (plan --out FILE)")
	}
	m, err := a.workspace(nil)
	if err != nil {
		return err
	}
	if !o.locked {
		l, err := a.lockState(m, "apply", o.lockTimeout)
		if err != nil {
			return err
		}
		defer l.Release()
	}
	st, err := m.loadState()
	if err != nil {
		return err
	}
	var p *plan.Plan
	var facts machine.Facts
	cfgDir, header := "", ""
	if len(args) == 1 {
		if p, err = plan.Load(fsys.OS{}, args[0]); err != nil {
			return failf("%s", err)
		}
		if st.IsNew() && p.Serial == 0 {
			// Planned before any state existed: the plan's lineage
			// becomes the new state's.
			st.Lineage = p.Lineage
		}
		if err := p.CheckState(st); err != nil {
			return failf("the saved plan %s is stale: %s. Run chronicle plan again.", args[0], err)
		}
		cfgDir = p.ConfigDir
		in, err := a.machineInputs(m.home)
		if err != nil {
			return err
		}
		header, facts = in.facts.Header(), in.facts
		if p.Machine != "" && p.Machine != in.facts.Name {
			return failf("the saved plan %s was made for the machine %s; this is %s: run chronicle plan on this machine", args[0], p.Machine, in.facts.Name)
		}
		if err := a.checkIdentity(m, st, facts, o.plan.machineRenamed); err != nil {
			return err
		}
		// Tools declared by tool blocks need their providers too.
		if cfg, _, diags := config.Load(p.ConfigDir, in.options(m.home, nil)); !diags.HasErrors() && len(cfg.Tools) > 0 {
			header = cfg.Machine.Header()
			if m, err = a.workspace(cfg); err != nil {
				return err
			}
		}
	} else {
		ld, err := a.optionalLoaded()
		if err != nil {
			return err
		}
		if ld == nil {
			dir, _ := a.configDir()
			return failf("no configuration in %s: nothing to apply (chronicle plan shows what adopt would take over)", dir)
		}
		if ld.report.HasErrors() {
			_ = ld.report.writeText(a.stderr, a.color(a.stderr))
			if o.outcome != nil {
				o.outcome.err = "the configuration has errors: " + ld.report.firstError()
			}
			return exitWith(exitError)
		}
		if m, err = a.workspace(ld.cfg); err != nil {
			return err
		}
		facts = ld.cfg.Machine
		if err := a.checkIdentity(m, st, facts, o.plan.machineRenamed); err != nil {
			return err
		}
		shown := unmanagedShown
		if o.asJSON {
			shown = 0
		}
		p = a.compute(ld, m, st, o.plan, shown)
		// apply holds the state lock (itself, or sync for it): it is one
		// of the commands that write the skill hash cache. A cache that
		// cannot be written only costs the next plan some reading.
		defer m.hashes.Save()
		defer ld.checked.Save()
		cfgDir, header = ld.cfg.Dir, ld.cfg.Machine.Header()
		if !o.asJSON && len(p.ConfigWarnings) > 0 {
			_ = ld.report.writeWarnings(a.stderr, a.color(a.stderr))
		}
		if err := a.ctx.Err(); err != nil {
			return failf("planning stopped (%s); nothing was changed", err)
		}
	}
	if note := m.stateDirNote(st, cfgDir); note != "" {
		fmt.Fprintln(a.stderr, note)
	}
	if o.asJSON {
		// The plan as plan --json prints it, then one line per change applied.
		if err := writePlanJSON(a.stdout, p, a.masker); err != nil {
			return err
		}
	} else {
		planView{w: a.stdout, home: m.home, color: a.color(a.stdout), header: header}.render(p)
	}
	if o.outcome != nil {
		o.outcome.planned(p)
	}
	if len(p.Errors()) > 0 {
		return failf("the plan has errors; nothing was changed")
	}
	if len(p.Conflicts()) > 0 && !o.skipConflicts {
		return failf("the plan has %d %s (!); nothing was changed. Resolve %s, or run %s to make the other changes", len(p.Conflicts()), plural(len(p.Conflicts()), "conflict", "conflicts"), plural(len(p.Conflicts()), "it", "them"), a.hintCommands(o.plan).SkipConflicts())
	}
	// The machine applying is recorded with the changes; a state that
	// has none to make but does not name this machine yet is saved for it.
	if recordIdentity(st, facts) && !p.HasChanges() && !st.IsNew() {
		if err := st.Save(m.statePath()); err != nil {
			return failf("%s", err)
		}
	}
	if !p.HasChanges() {
		return nil
	}
	if len(args) == 0 && !o.autoApprove && !a.confirm(a.ctx) {
		return failf("apply cancelled; nothing was changed")
	}
	sys, report := a.applySystem()
	defer report()
	lines := &changeLines{a: a, home: m.home, asJSON: o.asJSON}
	r, err := apply.Apply(p, apply.Options{
		Lists: providers.Lists{},
		State: st, Tools: m.tools, System: sys, ChronicleHome: m.chronicleHome, StoreDir: m.store.Dir,
		SnapshotDir: filepath.Join(m.chronicleHome, "snapshots"), SkipConflicts: o.skipConflicts,
		ConfigDir: resolvedDir(cfgDir), Version: version, Resolver: a.resolver(), Progress: a.progress(),
		Report:  lines.report,
		Context: a.ctx,
	})
	lines.flush()
	if a.ctx.Err() == nil {
		rememberCentralCopies(m.hashes, p)
	}
	if r != nil {
		a.applySummary(r, o.asJSON)
		if o.outcome != nil {
			o.outcome.applied(r)
			if o.skipConflicts && !o.asJSON {
				fmt.Fprintln(a.stdout, o.outcome.appliedLine())
				fmt.Fprintln(a.stdout, o.outcome.leftLine())
			}
		}
	}
	if err != nil {
		return failf("%s", err)
	}
	return nil
}

package main

import (
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/spf13/cobra"
)

func (a *app) planCommand() *cobra.Command {
	var (
		f planFlags
		o planOutput
	)
	cmd := &cobra.Command{
		Use:   "plan",
		Short: "Show what apply would change",
		Long: `plan scans what every tool has, diffs it against the configuration and the
state, and prints the changes in Terraform's style:

  +  create      ~  update      -  delete      -/+  replace
  !  conflict: something chronicle did not make, or that changed since it made
     it, is in the way; it is never overwritten (apply --replace ADDR takes it)

Text changes (SKILL.md files, config entries) are shown as unified diffs with
secrets masked. What the tools have that the configuration does not mention is
listed after the plan as "Not managed by chronicle": the first 20 items, then
their counts per tool and kind (--unmanaged lists them all, --json keeps them
all, and "chronicle scan" shows every tool's entries with their status).

With no configuration (no *.hcl files in the configuration directory) plan is
a first look at the machine: it shows what "chronicle adopt" would take over.

Exit codes: 0 ok (with --detailed-exitcode: nothing to do), 1 error,
2 changes or conflicts pending (--detailed-exitcode only).`,
		Example: `  chronicle plan
  chronicle plan --out tonight.plan && chronicle apply tonight.plan
  chronicle plan --json | jq -c 'select(.type == "change")'
  chronicle plan --unmanaged
  chronicle plan --replace 'link.everywhere["claude"].skill.review'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.planRun(f, o)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&o.json, "json", false, "print JSON lines: version, changes, unmanaged items (all of them), diagnostics, summary")
	fl.StringVar(&o.out, "out", "", "save the plan to `FILE` for apply")
	fl.BoolVar(&o.detailed, "detailed-exitcode", false, "exit 2 when there are changes or conflicts")
	fl.BoolVar(&o.unmanaged, "unmanaged", false, "list every item not managed by chronicle (without it, the first 20 and their counts)")
	fl.StringArrayVar(&f.replace, "replace", nil, "take the declared version at `ADDR` even over drift or a conflict (repeatable)")
	fl.BoolVar(&f.destroy, "destroy", false, "allow a plan that removes everything chronicle manages")
	fl.BoolVar(&f.offline, "offline", false, "make no network call: git skills are not checked against their remotes")
	machineRenamedFlag(cmd, &f)
	return cmd
}

// planOutput says how plan prints (and saves) what it computed.
type planOutput struct {
	json      bool   // JSON lines instead of the human view
	out       string // the file to save the plan to; empty for none
	detailed  bool   // exit 2 when there are changes or conflicts
	unmanaged bool   // list every unmanaged item, not the first ones and counts
}

// planRun is plan's work, shared with sync --check.
func (a *app) planRun(f planFlags, o planOutput) error {
	asJSON, out, detailed := o.json, o.out, o.detailed
	l, err := a.optionalLoaded()
	if err != nil {
		return err
	}
	if l == nil {
		return a.firstRun()
	}
	if l.report.HasErrors() {
		if asJSON {
			if err := writeDiagnosticsJSON(a.stdout, l.report); err != nil {
				return err
			}
		} else {
			_ = l.report.writeText(a.stderr, a.color(a.stderr))
		}
		return exitWith(exitError)
	}
	m, err := a.workspace(l.cfg)
	if err != nil {
		return err
	}
	st, err := m.loadState()
	if err != nil {
		return err
	}
	if err := a.checkIdentity(m, st, l.cfg.Machine, f.machineRenamed); err != nil {
		return err
	}
	shown := unmanagedShown
	if asJSON || out != "" || o.unmanaged {
		shown = 0 // every item, read: a program filters for itself, a saved plan keeps them
	}
	p := a.compute(l, m, st, f, shown)
	if err := a.ctx.Err(); err != nil {
		return failf("planning stopped (%s)", err)
	}
	if note := m.stateDirNote(st, l.cfg.Dir); note != "" {
		fmt.Fprintln(a.stderr, note)
	}
	if !asJSON && len(p.ConfigWarnings) > 0 {
		_ = l.report.writeWarnings(a.stderr, a.color(a.stderr))
	}
	logins := a.loginNotes(l.cfg, m.chronicleHome)
	if asJSON {
		p.Diagnostics = append(p.Diagnostics, logins...)
		if err := writePlanJSON(a.stdout, p, a.masker); err != nil {
			return err
		}
	} else {
		planView{w: a.stdout, home: m.home, color: a.color(a.stdout), allUnmanaged: o.unmanaged, header: l.cfg.Machine.Header()}.render(p)
		writeLoginNotes(a.stdout, logins)
	}
	if out != "" && len(p.Errors()) == 0 {
		if err := p.Save(fsys.OS{}, out); err != nil {
			return err
		}
		if !asJSON {
			fmt.Fprintf(a.stdout, "\nSaved the plan to %s: chronicle apply %s carries out exactly this plan.\n", out, out)
		}
	}
	switch {
	case len(p.Errors()) > 0 && out != "":
		return failf("the plan has errors; it was not saved to %s", out)
	case len(p.Errors()) > 0:
		return exitWith(exitError)
	case detailed && p.HasChanges():
		return exitWith(exitChanges)
	}
	return nil
}

// planCommandRun plans like plan --detailed-exitcode.
func (a *app) planCommandRun(f planFlags, detailed bool) error {
	return a.planRun(f, planOutput{detailed: detailed})
}

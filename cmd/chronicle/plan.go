package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) planCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plan",
		Short: "Show what apply would change",
		Long: `plan scans what every tool has, diffs it against the configuration and the
state, and prints the changes in Terraform's style (+ ~ - !).

With no configuration (no *.hcl files in the configuration directory) plan is
a first look at the machine: it scans every tool and shows what "chronicle
adopt" would take over. It changes nothing and exits 0.`,
		Example: `  chronicle plan
  chronicle plan --chdir ~/dotfiles/chronicle`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := a.optionalConfig()
			if err != nil {
				return err
			}
			if cfg == nil {
				return a.firstRun()
			}
			return notBuilt("planning against a configuration (the reconcile engine)")(cmd, nil)
		},
	}
	return cmd
}

// firstRun shows, on a machine without configuration, what adopt would take
// over. It writes nothing.
func (a *app) firstRun() error {
	dir, err := a.configDir()
	if err != nil {
		return err
	}
	p, errs, err := a.propose(nil, nil, dir)
	if err != nil {
		return err
	}
	m, err := a.machine(nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "No configuration in %s (no *.hcl files), so chronicle manages nothing yet.\n\n", tildePath(m.home, dir))
	if p.Empty() {
		fmt.Fprintln(a.stdout, "The tools on this machine have no MCP servers or skills to adopt.")
	} else {
		fmt.Fprintln(a.stdout, "This is what `chronicle adopt` would take over:")
		fmt.Fprintln(a.stdout)
		writeProposal(a.stdout, p, m.home)
		fmt.Fprintf(a.stdout, "\nAdopt: %d services, %d skills.\n", len(p.Services), len(p.Skills))
	}
	writeSkipped(a.stdout, p, errs)
	fmt.Fprintln(a.stdout, "\nTo start a configuration from this: chronicle init ~/dotfiles/chronicle")
	fmt.Fprintln(a.stdout, "(or chronicle adopt in an existing configuration directory). Nothing was changed.")
	return nil
}

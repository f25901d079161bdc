package main

import (
	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
)

func (a *app) showCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show PLANFILE",
		Short: "Print a saved plan",
		Long: `show prints a plan saved with "plan --out": for people, as plan shows it, or
with --json as one JSON document (the saved format: lineage, serial, the hash
of every source read, and each change with what apply needs).`,
		Example: `  chronicle show tonight.plan
  chronicle show --json tonight.plan | jq '.changes[].address'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := plan.Load(fsys.OS{}, args[0])
			if err != nil {
				return failf("%s", err)
			}
			if asJSON {
				return writeJSON(a.stdout, p)
			}
			home, _ := a.userHome()
			planView{w: a.stdout, home: home, color: a.color(a.stdout)}.render(p)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the plan as one JSON document")
	return cmd
}

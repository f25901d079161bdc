package main

import (
	"github.com/spf13/cobra"
)

func (a *app) showCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "show PLANFILE",
		Short: "Print a saved plan",
		Long:  `show prints a plan saved with "plan --out", for people or, with --json, as one document.`,
		Example: `  chronicle show tonight.plan
  chronicle show --json tonight.plan`,
		RunE: notBuilt("the reconcile engine"),
	}
}

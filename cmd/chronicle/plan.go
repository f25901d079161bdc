package main

import (
	"github.com/spf13/cobra"
)

func (a *app) planCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "plan",
		Short: "Show what apply would change",
		Long: `plan scans what every tool has, diffs it against the configuration and the state, and
prints the changes in Terraform's style (+ ~ - !). With no configuration it shows what
"adopt" would take over.`,
		Example: `  chronicle plan
  chronicle plan --out tonight.plan --detailed-exitcode`,
		RunE: notBuilt("scanning the tools' configuration"),
	}
}

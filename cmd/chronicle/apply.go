package main

import (
	"github.com/spf13/cobra"
)

func (a *app) applyCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "apply [PLANFILE]",
		Short: "Make the machine match the configuration",
		Long: `apply carries out a plan: backs up every file it will touch, copies skills into the
central store, links them into the tools, writes only the config entries it owns, and
records everything in the state.`,
		Example: `  chronicle apply
  chronicle apply --auto-approve
  chronicle apply tonight.plan`,
		RunE: notBuilt("the reconcile engine"),
	}
}

package main

import (
	"github.com/spf13/cobra"
)

func (a *app) skillsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "skills",
		Short: "Manage the central skills store",
	}
	cmd.AddCommand(
		&cobra.Command{
			Use:     "snapshots NAME",
			Short:   "List a skill's snapshots",
			Example: "  chronicle skills snapshots code-review",
			RunE:    notBuilt("the skills store"),
		},
		&cobra.Command{
			Use:     "restore NAME ID",
			Short:   "Restore a skill from a snapshot",
			Example: "  chronicle skills restore code-review 3",
			RunE:    notBuilt("the skills store"),
		},
		&cobra.Command{
			Use:     "outdated",
			Short:   "List git skills whose remote moved",
			Example: "  chronicle skills outdated --json",
			RunE:    notBuilt("the skills store"),
		},
	)
	return cmd
}

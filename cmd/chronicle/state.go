package main

import (
	"github.com/spf13/cobra"
)

func (a *app) stateCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "state",
		Short: "Inspect and forget what chronicle manages",
	}
	cmd.AddCommand(
		&cobra.Command{
			Use:     "list",
			Short:   "List the addresses in the state",
			Example: "  chronicle state list",
			RunE:    notBuilt("the state file"),
		},
		&cobra.Command{
			Use:     "show ADDR",
			Short:   "Show one address in the state",
			Example: "  chronicle state show skill.pdf",
			RunE:    notBuilt("the state file"),
		},
		&cobra.Command{
			Use:     "rm ADDR",
			Short:   "Forget an address without touching the machine",
			Example: "  chronicle state rm link.everywhere[\"claude\"].skill.pdf",
			RunE:    notBuilt("the state file"),
		},
	)
	return cmd
}

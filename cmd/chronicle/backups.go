package main

import (
	"github.com/spf13/cobra"
)

func (a *app) backupsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "backups",
		Short: "List and restore backups of the files chronicle touched",
	}
	cmd.AddCommand(
		&cobra.Command{
			Use:     "list",
			Short:   "List backup sets",
			Example: "  chronicle backups list",
			RunE:    notBuilt("backups"),
		},
		&cobra.Command{
			Use:     "restore ID",
			Short:   "Restore a backup set",
			Example: "  chronicle backups restore 20261130T101500Z",
			RunE:    notBuilt("backups"),
		},
	)
	return cmd
}

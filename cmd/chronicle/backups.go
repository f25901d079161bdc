package main

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/backup"
)

func (a *app) backupsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "backups",
		Short: "List and restore backups of the files chronicle touched",
		Long: `Before its first write to a file it does not own, chronicle copies the file into
a backup set under ~/.chronicle/backups/<time>/ (the last five sets are kept), and
the very first copy of each file is kept forever in backups/original/.`,
	}
	var asJSON bool
	list := &cobra.Command{
		Use:     "list",
		Short:   "List backup sets",
		Example: "  chronicle backups list",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := a.machine(nil)
			if err != nil {
				return err
			}
			sets, err := backup.List(m.chronicleHome)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, sets)
			}
			if len(sets) == 0 {
				fmt.Fprintln(a.stdout, "No backups yet.")
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
			for _, s := range sets {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d files\n", s.ID, s.Created.Local().Format(time.DateTime), s.Operation, len(s.Files))
				for _, f := range s.Files {
					note := ""
					switch {
					case f.Absent:
						note = " (did not exist)"
					case f.Moved:
						note = " (moved aside by --replace)"
					}
					fmt.Fprintf(tw, "\t\t%s%s\n", tildePath(m.home, f.Path), note)
				}
			}
			return tw.Flush()
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print the sets as JSON")
	restore := &cobra.Command{
		Use:   "restore ID",
		Short: "Restore a backup set",
		Long: `backups restore puts every file of a set back. The current files are backed up
first (in a new set), so a restore can itself be undone.`,
		Example: "  chronicle backups restore 20261130T101500Z\n  chronicle backups restore original",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.locked("backups restore", 0, func(m *machine) error {
				undo, err := backup.Restore(m.chronicleHome, args[0], time.Now())
				if err != nil {
					return failf("%s", err)
				}
				fmt.Fprintf(a.stdout, "Restored backup %s. The files it replaced are in backup %s.\n", args[0], undo.ID)
				return nil
			})
		},
	}
	cmd.AddCommand(list, restore)
	return cmd
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/backup"
	"github.com/chronicle-dev/chronicle/engine/fsys"
)

func (a *app) backupsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "backups",
		Short: "List and restore backups of the files chronicle touched",
		Long: `Before its first write to a file it does not own, chronicle copies the file into
a backup set under ~/.chronicle/backups/<time>/ (the last five such sets are kept),
and the very first copy of each file is kept forever in backups/original/.

What apply --replace moves out of the way (a real folder, a foreign link, a file)
goes into a set marked "kept": it stays until you remove it with backups prune.`,
	}
	var asJSON bool
	list := &cobra.Command{
		Use:     "list",
		Short:   "List backup sets",
		Example: "  chronicle backups list",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := a.workspace(nil)
			if err != nil {
				return err
			}
			sets, err := backup.List(fsys.OS{}, m.chronicleHome)
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
				kept := ""
				switch {
				case s.ID == backup.OriginalID:
					kept = " (kept forever; goes only when named: backups prune original)"
				case s.Kept:
					kept = " (kept until pruned: holds what --replace moved aside)"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d items%s\n", s.ID, s.Created.Local().Format(time.DateTime), s.Operation, len(s.Files), kept)
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
	var restoreTimeout, pruneTimeout time.Duration
	restore := &cobra.Command{
		Use:   "restore ID",
		Short: "Restore a backup set",
		Long: `backups restore puts every file of a set back. The current files are backed up
first (in a new set), so a restore can itself be undone.`,
		Example: "  chronicle backups restore 20261130T101500Z\n  chronicle backups restore original",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.locked("backups restore", restoreTimeout, func(m *workspace) error {
				undo, err := backup.Restore(fsys.OS{}, m.chronicleHome, args[0], time.Now())
				if err != nil {
					return failf("%s", err)
				}
				fmt.Fprintf(a.stdout, "Restored backup %s. The files it replaced are in backup %s.\n", args[0], undo.ID)
				return nil
			})
		},
	}
	var olderThan string
	prune := &cobra.Command{
		Use:   "prune [ID]...",
		Short: "Remove backup sets",
		Long: `backups prune removes the sets named, and with --older-than every set made before
that age (kept sets included). It is the only way a set holding something apply
--replace moved aside goes away; the original set goes only when named.`,
		Example: "  chronicle backups prune --older-than 30d\n  chronicle backups prune 20261130T101500.000000000Z",
		RunE: func(cmd *cobra.Command, args []string) error {
			var age time.Duration
			if olderThan != "" {
				var err error
				if age, err = backup.ParseAge(olderThan); err != nil {
					return failf("--older-than: %s", err)
				}
			}
			if len(args) == 0 && age == 0 {
				return failf("name the sets to remove, or give --older-than (e.g. 30d)")
			}
			return a.locked("backups prune", pruneTimeout, func(m *workspace) error {
				removed, err := backup.Prune(fsys.OS{}, m.chronicleHome, args, age, time.Now())
				for _, id := range removed {
					fmt.Fprintf(a.stdout, "Removed backup %s.\n", id)
				}
				if err != nil {
					return failf("%s", err)
				}
				if len(removed) == 0 {
					fmt.Fprintln(a.stdout, "No backup set is that old.")
				}
				return nil
			})
		},
	}
	lockTimeoutFlag(restore, &restoreTimeout)
	lockTimeoutFlag(prune, &pruneTimeout)
	prune.Flags().StringVar(&olderThan, "older-than", "", "remove every set older than `AGE` (e.g. 30d, 36h)")
	cmd.AddCommand(list, restore, prune)
	return cmd
}

// writeOriginalsKept says, after a takeover, that the tools' files as they
// were — their plain-text secrets included — are kept in the original
// backup set, and how to remove it once those secrets are rotated. Nothing
// is said when there is no such set.
func (a *app) writeOriginalsKept(m *workspace) {
	dir := filepath.Join(backup.Dir(m.chronicleHome), backup.OriginalID)
	if _, err := os.Stat(dir); err != nil {
		return
	}
	fmt.Fprintf(a.stdout, "\nThe tools' files as they were, plain-text secrets included, are kept in %s\n"+
		"(chronicle backups restore original puts them back). Once you have rotated those secrets,\n"+
		"remove them with: chronicle backups prune original\n", tildePath(m.home, dir))
}

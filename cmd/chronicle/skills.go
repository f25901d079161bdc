package main

import (
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/lock"
	"github.com/chronicle-dev/chronicle/engine/snapshot"
)

func (a *app) skillsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "skills",
		Short: "Manage the central skills store",
		Long: `Central skills live in ~/.chronicle/skills/<name>; every version chronicle
imported or replaced is kept as a snapshot in ~/.chronicle/snapshots/<name>/
(imported: kept forever; apply: taken before a replace; restore: taken before a
restore; identical trees are stored once).`,
	}
	var asJSON bool
	list := &cobra.Command{
		Use:     "snapshots NAME",
		Short:   "List a skill's snapshots",
		Example: "  chronicle skills snapshots code-review",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, err := a.machine(nil)
			if err != nil {
				return err
			}
			snaps, err := snapshot.List(filepath.Join(m.chronicleHome, "snapshots"), args[0])
			if err != nil {
				return failf("%s", err)
			}
			if asJSON {
				return writeJSON(a.stdout, snaps)
			}
			if len(snaps) == 0 {
				fmt.Fprintf(a.stdout, "No snapshots of %s.\n", args[0])
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tKIND\tTAKEN\tHASH")
			for _, s := range snaps {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.ID, s.Kind, s.Time.Local().Format(time.DateTime), shortHash(s.Hash))
			}
			return tw.Flush()
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print the snapshots as JSON")
	restore := &cobra.Command{
		Use:   "restore NAME ID",
		Short: "Restore a skill from a snapshot",
		Long: `skills restore puts a snapshot back as the central copy of a skill; links into
the store keep working. The current copy is snapshotted first. The next plan
shows the restored copy as drift when it differs from the declared source.`,
		Example: "  chronicle skills restore code-review 3",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, err := a.machine(nil)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(m.chronicleHome, 0o700); err != nil {
				return err
			}
			l, err := lock.Acquire(filepath.Join(m.chronicleHome, "state.lock"), "skills restore", 0)
			if err != nil {
				return failf("%s", err)
			}
			defer l.Release()
			if err := snapshot.Restore(filepath.Join(m.chronicleHome, "snapshots"), args[0], args[1], m.store.Dir); err != nil {
				return failf("%s", err)
			}
			fmt.Fprintf(a.stdout, "Restored skill %s from snapshot %s.\n", args[0], args[1])
			return nil
		},
	}
	outdated := &cobra.Command{
		Use:     "outdated",
		Short:   "List git skills whose remote moved",
		Example: "  chronicle skills outdated --json",
		RunE:    notBuilt("skills from git"),
	}
	cmd.AddCommand(list, restore, outdated)
	return cmd
}

func shortHash(h string) string {
	if len(h) > 19 {
		return h[:19]
	}
	return h
}

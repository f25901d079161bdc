package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/gitskill"
	"github.com/chronicle-dev/chronicle/engine/snapshot"
)

func (a *app) skillsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "skills",
		Short: "Manage the central skills store",
		Long: `Central skills live in ~/.chronicle/skills/<name>; every version chronicle
imported or replaced is kept as a snapshot in ~/.chronicle/snapshots/<name>/
(imported: kept forever; apply: taken before a replace; restore: taken before a
restore; identical trees are stored once). Tags and a 0-5 rating are local
metadata in ~/.chronicle/skills-meta.json (skills tag, skills rate, skills list).`,
	}
	var asJSON bool
	list := &cobra.Command{
		Use:     "snapshots NAME",
		Short:   "List a skill's snapshots",
		Example: "  chronicle skills snapshots code-review",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, err := a.workspace(nil)
			if err != nil {
				return err
			}
			snaps, err := snapshot.List(fsys.OS{}, filepath.Join(m.chronicleHome, "snapshots"), args[0])
			if err != nil {
				return failf("%s", err)
			}
			if asJSON {
				if snaps == nil {
					snaps = []snapshot.Snapshot{} // the same array as GET /api/skills/NAME/snapshots
				}
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
	var restoreTimeout time.Duration
	restore := &cobra.Command{
		Use:   "restore NAME ID",
		Short: "Restore a skill from a snapshot",
		Long: `skills restore puts a snapshot back as the central copy of a skill; links into
the store keep working. The current copy is snapshotted first. The next plan
shows the restored copy as drift when it differs from the declared source.`,
		Example: "  chronicle skills restore code-review 3",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.locked("skills restore", restoreTimeout, func(m *workspace) error {
				if err := snapshot.Restore(fsys.OS{}, filepath.Join(m.chronicleHome, "snapshots"), args[0], args[1], m.store.Dir); err != nil {
					return failf("%s", err)
				}
				fmt.Fprintf(a.stdout, "Restored skill %s from snapshot %s.\n", args[0], args[1])
				return nil
			})
		},
	}
	lockTimeoutFlag(restore, &restoreTimeout)
	var outdatedJSON bool
	outdated := &cobra.Command{
		Use:   "outdated",
		Short: "List git skills whose remote moved",
		Long: `skills outdated compares the commit each git skill was imported at with the
remote's current commit for its ref, by listing the remote's refs (no clone).
A skill pinned to a full commit SHA never moves.`,
		Example: "  chronicle skills outdated\n  chronicle skills outdated --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.outdated(outdatedJSON)
		},
	}
	outdated.Flags().BoolVar(&outdatedJSON, "json", false, "print the skills as JSON")
	cmd.AddCommand(a.skillsListCommand(), a.skillsTagCommand(), a.skillsRateCommand(), list, restore, outdated)
	return cmd
}

// An outdatedSkill is one row of skills outdated.
type outdatedSkill struct {
	Name     string `json:"name"`
	Repo     string `json:"repo"`
	Ref      string `json:"ref"`
	Recorded string `json:"recorded_sha"`
	Remote   string `json:"remote_sha,omitempty"`
	Status   string `json:"status"` // up-to-date, outdated, pinned, error
	Error    string `json:"error,omitempty"`
}

func (a *app) outdated(asJSON bool) error {
	cfg, err := a.optionalConfig()
	if err != nil {
		return err
	}
	_, st, err := a.loadedState()
	if err != nil {
		return err
	}
	rows := []outdatedSkill{}
	for _, name := range sortedNames(st.Skills) {
		rec := st.Skills[name]
		if rec.OriginRepo == "" {
			continue
		}
		row := outdatedSkill{Name: name, Repo: rec.OriginRepo, Ref: rec.OriginRef, Recorded: rec.OriginSHA}
		if gitskill.IsCommitSHA(rec.OriginRef) {
			row.Remote, row.Status = rec.OriginRef, "pinned"
			rows = append(rows, row)
			continue
		}
		auth := ""
		if cfg != nil {
			for _, s := range cfg.Skills {
				if s.Git == rec.OriginRepo && !s.Auth.IsZero() {
					auth, _ = a.resolver().Resolve(s.Auth)
				}
			}
		}
		sha, err := gitskill.RemoteSHA(a.ctx, rec.OriginRepo, rec.OriginRef, auth)
		if err := a.ctx.Err(); err != nil {
			return failf("skills outdated stopped while asking %s: %s", rec.OriginRepo, err)
		}
		switch {
		case err != nil:
			row.Status, row.Error = "error", err.Error()
		case sha == rec.OriginSHA:
			row.Remote, row.Status = sha, "up-to-date"
		default:
			row.Remote, row.Status = sha, "outdated"
		}
		rows = append(rows, row)
	}
	if asJSON {
		return writeJSON(a.stdout, rows)
	}
	if len(rows) == 0 {
		fmt.Fprintln(a.stdout, "No skills from git in the state.")
		return nil
	}
	tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SKILL\tREF\tRECORDED\tREMOTE\tSTATUS")
	for _, r := range rows {
		status := r.Status
		if r.Error != "" {
			status += ": " + r.Error
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Name, refName(r.Ref), short(r.Recorded), short(r.Remote), status)
	}
	return tw.Flush()
}

func refName(ref string) string {
	if ref == "" {
		return "(default branch)"
	}
	return ref
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func shortHash(h string) string {
	if len(h) > 19 {
		return h[:19]
	}
	return h
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/gitsync"
)

func (a *app) syncCommand() *cobra.Command {
	var (
		repo, ref, tokenEnv string
		check, reset        bool
		skipConflicts       bool
		f                   planFlags
		lockTimeout         time.Duration
	)
	f.sync = true
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "Pull the config repository and apply it",
		Long: `sync clones or fast-forwards the configuration repository (https only, through
go-git) into ~/.chronicle/source, then plans it and, unless --check, applies the
plan when it has no conflicts (--skip-conflicts, --replace and --destroy work as
for apply, and the plan's hints name them). The URL is remembered after the
first sync. It
refuses to sync over local commits or uncommitted changes in ~/.chronicle/source.

Exit codes: with --check as plan --detailed-exitcode (0 in sync, 2 changes
pending, 1 error); otherwise as apply (0 applied or nothing to do, 1 error or
conflicts).

Run it on a schedule so that several machines follow one repository — see
README.md ("Following one repository from several machines") for a systemd
timer, a launchd agent and a cron line.`,
		Example: `  chronicle sync --repo https://github.com/me/dotfiles-chronicle
  chronicle sync                 # the remembered repository
  chronicle sync --check         # exit 2 when this machine is behind
  chronicle sync --token-env GITHUB_TOKEN   # a private repository`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := a.workspace(nil)
			if err != nil {
				return err
			}
			token := ""
			if tokenEnv != "" {
				var ok bool
				if token, ok = os.LookupEnv(tokenEnv); !ok || token == "" {
					return failf("--token-env %s: the variable is not set", tokenEnv)
				}
			}
			// The checkout and the apply after it change ~/.chronicle:
			// both happen under one hold of the state lock.
			l, err := a.lockState(m, "sync", lockTimeout)
			if err != nil {
				return err
			}
			defer l.Release()
			dir := filepath.Join(m.chronicleHome, "source")
			res, err := gitsync.Sync(a.ctx, gitsync.SyncOptions{Dir: dir, URL: repo, Ref: ref, Auth: token, Reset: reset, Progress: a.progress()})
			if err != nil {
				return failf("%s", err)
			}
			switch {
			case res.Cloned:
				fmt.Fprintf(a.stdout, "Cloned %s (%s) at %s into %s.\n", res.URL, res.Ref, short(res.NewSHA), tildePath(m.home, dir))
			case res.Changed():
				fmt.Fprintf(a.stdout, "Fast-forwarded %s (%s) from %s to %s.\n", res.URL, res.Ref, short(res.OldSHA), short(res.NewSHA))
			default:
				fmt.Fprintf(a.stdout, "%s (%s) is at %s: nothing new.\n", res.URL, res.Ref, short(res.NewSHA))
			}
			a.chdir = dir
			if check {
				return a.planCommandRun(f, true)
			}
			return a.applyAuto(f, skipConflicts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&repo, "repo", "", "the https:// `URL` of the configuration repository (remembered)")
	fl.StringVar(&ref, "ref", "", "the branch to follow (default: the checked-out one, or the remote's default)")
	fl.BoolVar(&check, "check", false, "only plan: exit 0 in sync, 2 changes pending, 1 error")
	fl.StringVar(&tokenEnv, "token-env", "", "read a token for a private repository from this environment `VARIABLE`")
	fl.BoolVar(&reset, "reset", false, "follow a different --repo than the remembered one (the old checkout must be clean)")
	fl.BoolVar(&f.offline, "offline", false, "do not check git skills against their remotes")
	// The plan's own options, as apply has them: its hints name them.
	fl.StringArrayVar(&f.replace, "replace", nil, "take the declared version at `ADDR` even over drift or a conflict (repeatable)")
	fl.BoolVar(&f.destroy, "destroy", false, "allow removing everything chronicle manages")
	fl.BoolVar(&skipConflicts, "skip-conflicts", false, "make every change but the conflicts, and list those")
	lockTimeoutFlag(cmd, &lockTimeout)
	return cmd
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/gitsync"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/syncstatus"
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

Every sync records how it went in ~/.chronicle/sync-status.json (the time, the
commit, what it applied and left, the error, the exit code and its meaning);
chronicle machine, doctor and autostart status show it. Run it on a schedule
with chronicle autostart install --sync-every 15m.`,
		Example: `  chronicle sync --repo https://github.com/me/dotfiles-chronicle
  chronicle sync                 # the remembered repository
  chronicle sync --check         # exit 2 when this machine is behind
  chronicle sync --token-env GITHUB_TOKEN   # a private repository`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.syncRun(syncFlags{repo: repo, ref: ref, tokenEnv: tokenEnv, check: check, reset: reset,
				skipConflicts: skipConflicts, plan: f, lockTimeout: lockTimeout})
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
	machineRenamedFlag(cmd, &f)
	lockTimeoutFlag(cmd, &lockTimeout)
	return cmd
}

// syncFlags are sync's options.
type syncFlags struct {
	repo, ref, tokenEnv string
	check, reset        bool
	skipConflicts       bool
	plan                planFlags
	lockTimeout         time.Duration
}

// syncRun is sync's work. Once it holds the state lock, how it ends is
// recorded in ~/.chronicle/sync-status.json, still under the lock: a sync
// that could not take the lock leaves the file to the one that holds it.
func (a *app) syncRun(o syncFlags) (err error) {
	m, err := a.workspace(nil)
	if err != nil {
		return err
	}
	// The checkout and the apply after it change ~/.chronicle:
	// both happen under one hold of the state lock.
	l, err := a.lockState(m, "sync", o.lockTimeout)
	if err != nil {
		return err
	}
	defer l.Release()
	rec, out := &syncstatus.Status{Time: time.Now().UTC(), Check: o.check}, &applyOutcome{}
	defer func() { a.recordSync(rec, out, err) }()
	token := ""
	if o.tokenEnv != "" {
		// The environment first, then ~/.chronicle/env: a timer's
		// environment has no shell variables (launchd, Task Scheduler).
		if token, err = a.resolver().Resolve(secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: o.tokenEnv})); err != nil || token == "" {
			return failf("--token-env %s: the variable is set neither in the environment nor in %s", o.tokenEnv, tildePath(m.home, filepath.Join(m.chronicleHome, "env")))
		}
		a.masker.Add(token)
	}
	// Who this machine is, before the pull changes anything.
	in, err := a.machineInputs(m.home)
	if err != nil {
		return err
	}
	st, err := m.loadState()
	if err != nil {
		return err
	}
	if _, err := m.identityCheck(st, in.facts, o.plan.machineRenamed); err != nil {
		return err
	}
	dir := filepath.Join(m.chronicleHome, "source")
	res, err := gitsync.Sync(a.ctx, gitsync.SyncOptions{Dir: dir, URL: o.repo, Ref: o.ref, Auth: token, Reset: o.reset, Progress: a.progress()})
	if err != nil {
		return failf("%s", err)
	}
	rec.URL, rec.Ref, rec.Commit = res.URL, res.Ref, res.NewSHA
	switch {
	case res.Cloned:
		fmt.Fprintf(a.stdout, "Cloned %s (%s) at %s into %s.\n", res.URL, res.Ref, short(res.NewSHA), tildePath(m.home, dir))
	case res.Changed():
		fmt.Fprintf(a.stdout, "Fast-forwarded %s (%s) from %s to %s.\n", res.URL, res.Ref, short(res.OldSHA), short(res.NewSHA))
	default:
		fmt.Fprintf(a.stdout, "%s (%s) is at %s: nothing new.\n", res.URL, res.Ref, short(res.NewSHA))
	}
	a.chdir = dir
	if o.check {
		return a.planCommandRun(o.plan, true)
	}
	return a.applyRun(applyFlags{plan: o.plan, autoApprove: true, skipConflicts: o.skipConflicts, locked: true, outcome: out}, nil)
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/apply"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/providers"
)

func (a *app) importCommand() *cobra.Command {
	var lockTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "import ADDR...",
		Short: "Take over an existing identical entry or link as chronicle's",
		Long: `import records what a tool already has at ADDR as chronicle's, as it is: an entry
identical to the declared one (or holding the declared secret in plain text, which
the next apply writes as a reference), a link to the central copy, or an identical
copy. Nothing in the tool is rewritten. When what is there is not the declared
thing, import refuses and shows the difference. chronicle state rm ADDR is the
inverse.`,
		Example: `  chronicle import 'link.everywhere["cursor"].service.github'
  chronicle import 'link.everywhere["claude"].skill.review'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := a.optionalLoaded()
			if err != nil {
				return err
			}
			if l == nil {
				dir, _ := a.configDir()
				return failf("no configuration in %s: import takes over what the configuration declares", dir)
			}
			if l.report.HasErrors() {
				_ = l.report.writeText(a.stderr, a.color(a.stderr))
				return exitWith(exitError)
			}
			m, err := a.workspace(l.cfg)
			if err != nil {
				return err
			}
			lk, err := a.lockState(m, "import", lockTimeout)
			if err != nil {
				return err
			}
			defer lk.Release()
			st, err := m.loadState()
			if err != nil {
				return err
			}
			imports := map[string]bool{}
			for _, addr := range args {
				imports[addr] = true
			}
			hubCmd, hubErr := a.hubCommand(m)
			pl := plan.Compute(plan.Inputs{
				Lists: providers.Lists{}, OAuth: providers.OAuth,
				Config: l.cfg, State: st, Tools: m.tools, Env: m.env, StoreDir: m.store.Dir, HubCommand: hubCmd, HubError: hubErr, HubTokenFile: hubtoken.Path(m.chronicleHome),
				Import: imports, Chronicle: version, Offline: true, Resolver: a.resolver(), Masker: a.masker, Context: a.ctx,
				Reader: fsys.ReadOnly(fsys.OS{}), Scratch: fsys.OS{}, EUID: os.Geteuid(),
			})
			take := *pl
			take.Changes, take.Diagnostics = nil, nil
			var refused []string
			for _, addr := range args {
				c, ok := changeAt(pl, addr)
				switch {
				case !ok && slices.Contains(st.Addresses(), addr):
					fmt.Fprintf(a.stdout, "%s is chronicle's already.\n", addr)
				case !ok:
					refused = append(refused, fmt.Sprintf("%s: the configuration declares nothing there that the tools have (chronicle state list shows what chronicle manages)", addr))
				case importable(c):
					take.Changes = append(take.Changes, c)
				default:
					msg := fmt.Sprintf("%s: not imported: %s", addr, c.Reason)
					if c.Diff != "" {
						msg += "\n" + c.Diff
					}
					refused = append(refused, msg)
				}
			}
			for _, r := range refused {
				fmt.Fprintln(a.stderr, r)
			}
			if len(take.Changes) > 0 {
				r, err := apply.Apply(&take, apply.Options{
					Lists: providers.Lists{},
					State: st, Tools: m.tools, System: fsys.OS{}, ChronicleHome: m.chronicleHome, StoreDir: m.store.Dir,
					SnapshotDir: filepath.Join(m.chronicleHome, "snapshots"), ConfigDir: resolvedDir(l.cfg.Dir), Version: version,
					Resolver: a.resolver(), Context: a.ctx,
				})
				if r != nil {
					for _, c := range r.Applied {
						fmt.Fprintf(a.stdout, "Imported %s.\n", c.Address)
					}
				}
				if err != nil {
					return failf("%s", err)
				}
			}
			if len(refused) > 0 {
				return exitWith(exitError)
			}
			return nil
		},
	}
	lockTimeoutFlag(cmd, &lockTimeout)
	return cmd
}

// importable reports whether c only records what is there as chronicle's.
func importable(c plan.Change) bool {
	switch {
	case c.Action != plan.Update:
		return false
	case c.Kind == plan.KindEntry:
		return c.Entry != nil && c.Entry.RecordOnly
	case c.Kind == plan.KindLink:
		return strings.HasPrefix(c.Reason, "takes over")
	case c.Kind == plan.KindBlock:
		// A block already there, or a file's whole text with the markers
		// put around it.
		return c.Block != nil && (c.Block.RecordOnly || c.Block.Wrap)
	case c.Kind == plan.KindFile:
		return c.File != nil && c.File.RecordOnly
	case c.Kind == plan.KindRule:
		return c.Rule != nil && c.Rule.RecordOnly
	}
	return false
}

func changeAt(p *plan.Plan, addr string) (plan.Change, bool) {
	for _, c := range p.Changes {
		if c.Address == addr {
			return c, true
		}
	}
	return plan.Change{}, false
}

package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/gitskill"
	"github.com/chronicle-dev/chronicle/engine/lockfile"
	"github.com/chronicle-dev/chronicle/engine/secret"
)

func (a *app) lockCommand() *cobra.Command {
	var upgrade bool
	cmd := &cobra.Command{
		Use:   "lock [--upgrade [ADDR...]]",
		Short: "Record the commit of every git skill in .chronicle.lock.hcl",
		Long: `lock writes .chronicle.lock.hcl in the configuration directory: for every git
skill block, its repository, its ref and the commit that ref names now. Commit
the file with the configuration: while it exists, plan, apply and sync install
the locked commits on every machine, even after a branch has moved.

lock adds the blocks that have no entry and never moves an entry. With
--upgrade it moves the entries ADDR names (skill.NAME, the block's address),
or every entry, to the current tips and shows what changed; --upgrade without
ADDR also drops the entries of blocks that are gone. Only lock writes the
file.`,
		Example: `  chronicle lock                       # lock what is not locked yet
  chronicle lock --upgrade skill.pdf   # move one skill to its branch's tip
  chronicle lock --upgrade             # move every skill`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && !upgrade {
				return failf("chronicle lock takes addresses only with --upgrade (chronicle lock --upgrade %s)", strings.Join(args, " "))
			}
			return a.lock(upgrade, args)
		},
	}
	cmd.Flags().BoolVar(&upgrade, "upgrade", false, "move the entries ADDR names, or all, to the current tips")
	return cmd
}

func (a *app) lock(upgrade bool, addrs []string) error {
	l, err := a.loadConfig()
	if err != nil {
		return err
	}
	if l.report.HasErrors() {
		_ = l.report.writeText(a.stderr, a.color(a.stderr))
		return exitWith(exitError)
	}
	// The lock is the repository's, shared by every machine: it holds the
	// git skills absent on this one (when = false) too. A skill's auth is
	// resolved only when its tip is asked for, so that a token another
	// machine has is not needed to keep its entry.
	var blocks []lockfile.Block
	auth := map[string]secret.Value{}
	for _, s := range l.cfg.DeclaredSkills() {
		if s.Git == "" {
			continue
		}
		blocks = append(blocks, lockfile.Block{Name: s.Name, URL: s.Git, Ref: s.Ref})
		auth[s.Name] = s.Auth
	}
	named, err := upgradeSet(blocks, addrs)
	if err != nil {
		return err
	}
	f := l.lock
	if f == nil {
		f = lockfile.New()
	}
	before := string(f.Bytes())
	tip := func(b lockfile.Block) (string, error) {
		token := ""
		if ref := auth[b.Name]; !ref.IsZero() {
			t, err := a.resolver().Resolve(ref)
			if err != nil {
				return "", fmt.Errorf("cannot authenticate to %s: %s", b.URL, a.masker.Text(err.Error()))
			}
			a.masker.Add(t)
			token = t
		}
		sha, err := gitskill.RemoteSHA(a.ctx, b.URL, b.Ref, token)
		if err != nil {
			return "", fmt.Errorf("%s", a.masker.Text(err.Error()))
		}
		return sha, nil
	}
	changes, err := f.Lock(blocks, named, upgrade && len(addrs) == 0, tip)
	if err != nil {
		return failf("%s", err)
	}
	writeLockChanges(a.stdout, changes)
	if l.lock != nil && string(f.Bytes()) == before {
		fmt.Fprintf(a.stdout, "%s is up to date (%d %s).\n", lockfile.FileName, len(f.Skills), plural(len(f.Skills), "skill", "skills"))
		return nil
	}
	if err := f.Write(fsys.OS{}, l.cfg.Dir); err != nil {
		return failf("%s", err)
	}
	fmt.Fprintf(a.stdout, "Wrote %s (%d %s). Commit it with the configuration.\n", lockfile.FileName, len(f.Skills), plural(len(f.Skills), "skill", "skills"))
	return nil
}

// upgradeSet checks that every ADDR names a git skill block and returns
// their names.
func upgradeSet(blocks []lockfile.Block, addrs []string) (map[string]bool, error) {
	known := map[string]bool{}
	var list []string
	for _, b := range blocks {
		known[b.Name] = true
		list = append(list, "skill."+b.Name)
	}
	sort.Strings(list)
	named := map[string]bool{}
	for _, addr := range addrs {
		name, ok := strings.CutPrefix(addr, "skill.")
		if !ok || !known[name] {
			if len(list) == 0 {
				list = []string{"none"}
			}
			return nil, failf("%s is not the address of a git skill block (git skills: %s)", addr, strings.Join(list, ", "))
		}
		named[name] = true
	}
	return named, nil
}

// writeLockChanges prints one line per entry lock added, moved, kept at
// its tip or dropped.
func writeLockChanges(w io.Writer, changes []lockfile.Change) {
	for _, c := range changes {
		switch c.Action {
		case lockfile.Added:
			fmt.Fprintf(w, "+ %s  %s at %s\n", c.Addr(), refName(c.After.Ref), short(c.After.Commit))
		case lockfile.Upgraded:
			from := short(c.Before.Commit)
			if c.Before.URL != c.After.URL || c.Before.Ref != c.After.Ref {
				from = fmt.Sprintf("%s (%s %s)", from, c.Before.URL, refName(c.Before.Ref))
			}
			fmt.Fprintf(w, "~ %s  %s: %s -> %s\n", c.Addr(), refName(c.After.Ref), from, short(c.After.Commit))
		case lockfile.Unchanged:
			fmt.Fprintf(w, "  %s  %s: still at %s\n", c.Addr(), refName(c.After.Ref), short(c.After.Commit))
		case lockfile.Removed:
			fmt.Fprintf(w, "- %s  no skill block any more (was %s)\n", c.Addr(), short(c.Before.Commit))
		}
	}
}

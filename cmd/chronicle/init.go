package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/adopt"
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
)

const initReadme = `# chronicle configuration

This folder declares the MCP servers, skills, links and policies of the AI coding
tools on my machines. It was started by ` + "`chronicle init`" + ` from what the tools had.

- ` + "`chronicle.hcl`" + `: the declaration (adopted blocks; add link blocks to fan out).
- ` + "`skills/`" + `: skills kept here and copied into ~/.chronicle/skills by apply.

Secrets are never stored here: each secret("env:NAME") names a variable to export
(or to put in ~/.chronicle/env).

    chronicle validate   # check
    chronicle plan       # what would change
    chronicle apply      # make it so (backs up first)
`

func (a *app) initCommand() *cobra.Command {
	var (
		linkSkills, moveState, rules bool
		lockTimeout                  time.Duration
	)
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Create a config directory from what this machine has",
		Long: `init creates DIR (default: the configuration directory) with a starter
chronicle.hcl made by "adopt" from what the tools have, a skills/ folder holding
copies of the importable skills, and a short README: a dotfiles-ready repository
at once, with link blocks reproducing which tools have which services, recorded
as chronicle's (see adopt). It refuses a folder that already holds *.hcl files
(use adopt there).`,
		Example: `  chronicle init ~/dotfiles/chronicle
  cd ~/dotfiles/chronicle && git init && git add . && git commit -m "chronicle: start"`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := a.configDir()
			if err != nil {
				return err
			}
			if len(args) == 1 {
				if dir, err = filepath.Abs(args[0]); err != nil {
					return err
				}
			}
			if files, _ := config.Files(dir); len(files) > 0 {
				return failf("%s already holds a configuration (%s): run chronicle adopt there instead", dir, filepath.Base(files[0]))
			}
			if err := a.checkStateDir(dir, moveState); err != nil {
				return err
			}
			made, err := startFolder(fsys.OS{}, dir)
			complete := false
			defer func() {
				if !complete {
					made.undo()
				}
			}()
			if err != nil {
				return err
			}
			p, errs, err := a.propose(nil, nil, dir, proposeOptions{linkSkills: linkSkills, rules: rules})
			if err != nil {
				return err
			}
			m, err := a.workspace(nil)
			if err != nil {
				return err
			}
			out := filepath.Join(dir, "chronicle.hcl")
			readme := filepath.Join(dir, "README.md")
			made.adds(out)
			made.adds(readme)
			for _, s := range p.Skills {
				if s.Copy {
					made.adds(filepath.Join(dir, filepath.FromSlash(s.To)))
				}
			}
			for _, in := range p.Instructions {
				if in.Copy {
					made.adds(filepath.Join(dir, filepath.FromSlash(in.To)))
				}
			}
			if p.Empty() {
				err = (fsys.OS{}).WriteFile(out, []byte("# chronicle configuration: see chronicle.hcl.example in the chronicle repository.\n"), 0o644)
			} else {
				// adopt writes a backup set under ~/.chronicle.
				l, lerr := a.lockState(m, "init", lockTimeout)
				if lerr != nil {
					return lerr
				}
				defer l.Release()
				_, err = adopt.Write(p, adopt.WriteOptions{ConfigDir: dir, Out: out, ChronicleHome: m.chronicleHome, Now: time.Now()})
			}
			if err != nil {
				return err
			}
			if _, err := os.Stat(readme); os.IsNotExist(err) {
				if err := (fsys.OS{}).WriteFile(readme, []byte(initReadme), 0o644); err != nil {
					return err
				}
			}
			// The folder is complete: what follows records the takeover
			// and, should it fail, leaves the configuration to fix and apply.
			complete = true
			writeProposal(a.stdout, p, m.home)
			var takeErr error
			if !p.Empty() {
				r, left, err := a.takeover(m, dir, p, linkSkills)
				a.writeTakeover(r, left)
				takeErr = err
			}
			writeSkipped(a.stdout, p, errs)
			fmt.Fprintf(a.stdout, "\nCreated %s with %s, %s and %s.\n", tildePath(m.home, dir), count(len(p.Services), "service", "services"), count(len(p.Skills), "skill", "skills"), count(len(p.Links), "link", "links"))
			a.writeOriginalsKept(m)
			if takeErr != nil {
				return failf("%s", takeErr)
			}
			fmt.Fprintln(a.stdout, "Next: export the variables named in chronicle.hcl, then chronicle plan there: it shows no changes but the secrets chronicle will write as references.")
			return nil
		},
	}
	cmd.Flags().BoolVar(&moveState, "move-state", false, "adopt even though the state was last applied from another configuration folder: this one takes its place")
	cmd.Flags().BoolVar(&linkSkills, "link-skills", false, "replace the tools' skill folders by links to the central copies (the folders go into a backup set)")
	cmd.Flags().BoolVar(&rules, "rules", false, "take over each root instruction file written by hand (AGENTS.md, CLAUDE.md, …) as one rule holding its whole text")
	lockTimeoutFlag(cmd, &lockTimeout)
	return cmd
}

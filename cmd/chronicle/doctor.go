package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

func (a *app) doctorCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check this machine and configuration for problems",
		Long: `doctor checks what chronicle relies on and says what to fix: the configuration
(when there is one), chronicle's folder and the modes of its private files, the
state, every tool's config file (a file chronicle cannot parse is never written),
the chronicle binary that hub entries start, and the commands stdio services run.
It changes nothing. Exit code 1 when a check fails.`,
		Example: "  chronicle doctor",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			failed := 0
			report := func(ok bool, what, detail string) {
				mark := "ok  "
				if !ok {
					mark = "FAIL"
					failed++
				}
				fmt.Fprintf(a.stdout, "%s %s", mark, what)
				if detail != "" {
					fmt.Fprintf(a.stdout, ": %s", detail)
				}
				fmt.Fprintln(a.stdout)
			}
			cfg, err := a.optionalConfig()
			switch {
			case err != nil:
				report(false, "configuration", "does not validate (run chronicle validate)")
			case cfg == nil:
				report(true, "configuration", "none here (chronicle plan shows what adopt would take over)")
			default:
				report(true, "configuration", count(len(cfg.Files), "file", "files")+", "+count(len(cfg.Services), "service", "services")+", "+count(len(cfg.Skills), "skill", "skills")+", "+count(len(cfg.Links), "link", "links"))
			}
			m, err := a.workspace(cfg)
			if err != nil {
				return err
			}
			private := func(path string, want fs.FileMode, what string) {
				info, err := os.Stat(path)
				switch {
				case errors.Is(err, fs.ErrNotExist):
					report(true, what, "not there yet")
				case err != nil:
					report(false, what, err.Error())
				case info.Mode().Perm()&^want != 0:
					report(false, what, fmt.Sprintf("%s is mode %o; run chmod %o %s", path, info.Mode().Perm(), want, path))
				default:
					report(true, what, path)
				}
			}
			private(m.chronicleHome, 0o700, "chronicle's folder")
			private(m.statePath(), 0o600, "state file")
			private(filepath.Join(m.chronicleHome, "env"), 0o600, "secrets file ~/.chronicle/env")
			st, err := m.loadState()
			if err != nil {
				report(false, "state", err.Error())
			} else if !st.IsNew() {
				report(true, "state", fmt.Sprintf("serial %d, %s, %s, %s", st.Serial, count(len(st.Links), "link", "links"), count(len(st.Entries), "entry", "entries"), count(len(st.Skills), "skill", "skills")))
			}
			summary, ok, _ := a.lastSync(time.Now())
			report(ok, "last sync", summary)
			view := toolfile.NewView(fsys.ReadOnly(fsys.OS{}))
			// The variables the entries chronicle wrote read in the tools.
			var uses []plan.VariableUse
			for _, p := range m.tools {
				for _, loc := range p.Locations(m.env) {
					entries, err := view.Entries(p, loc)
					if err != nil && !errors.Is(err, provider.ErrNotConfigured) {
						report(false, p.Name()+" config", err.Error())
					}
					for _, e := range entries {
						if st != nil && st.EntryAt(loc.File, loc.KeyPath, e.Name) != nil {
							uses = append(uses, plan.VariableUses(e.Definition, e.Name, p.Name())...)
						}
					}
				}
			}
			if cmd, errMsg := a.hubCommand(m); errMsg != "" {
				report(false, "hub entries", errMsg)
			} else {
				report(true, "hub entries", "tools will start "+cmd[0])
			}
			if cfg != nil {
				seen := map[string]bool{}
				for _, s := range cfg.Services {
					if s.Command == "" || seen[s.Command] {
						continue
					}
					seen[s.Command] = true
					if _, err := exec.LookPath(s.Command); err != nil {
						report(false, "command "+scan.ShownText(s.Command), "not on PATH (needed by service "+s.Name+")")
					}
				}
			}
			// Not a failure: the tool starts, and says what is missing.
			for _, line := range plan.UnsetVariables(uses, a.resolver(), m.home) {
				fmt.Fprintf(a.stdout, "note %s\n", line)
			}
			if failed > 0 {
				return exitWith(exitError)
			}
			return nil
		},
	}
}

package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) validateCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check the configuration without touching the machine",
		Long: `validate reads every *.hcl file of the configuration directory and checks it:
syntax, block and attribute names, types, names of services, skills and links,
references between blocks, and secret() references. It reads no tool config and
changes nothing. Exit code 0 when valid, 1 with diagnostics otherwise.`,
		Example: `  chronicle validate
  chronicle validate --chdir ~/dotfiles/chronicle --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			l, err := a.loadConfig()
			if err != nil {
				return err
			}
			errs, warns := l.report.counts()
			if asJSON {
				if err := writeJSON(a.stdout, map[string]any{
					"format_version": "1.0",
					"valid":          !l.report.HasErrors() && len(l.cfg.Files) > 0,
					"error_count":    errs,
					"warning_count":  warns,
					"files":          l.cfg.Files,
					"diagnostics":    l.report.jsonDiagnostics(),
				}); err != nil {
					return err
				}
			} else if err := l.report.writeText(a.stderr, a.color(a.stderr)); err != nil {
				return err
			}
			if len(l.cfg.Files) == 0 {
				if asJSON {
					return exitWith(exitError)
				}
				return failf("no *.hcl files in %s: nothing to validate (run \"chronicle init\" to start one)", l.cfg.Dir)
			}
			if l.report.HasErrors() {
				return exitWith(exitError)
			}
			if !asJSON {
				fmt.Fprintf(a.stdout, "Success! The configuration is valid (%d %s", len(l.cfg.Files), plural(len(l.cfg.Files), "file", "files"))
				if warns > 0 {
					fmt.Fprintf(a.stdout, ", %d %s", warns, plural(warns, "warning", "warnings"))
				}
				fmt.Fprintln(a.stdout, ").")
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as one JSON document")
	return cmd
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// count writes n with its noun: "1 service", "2 services", "0 services".
func count(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, plural(n, one, many))
}

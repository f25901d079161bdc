package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/adopt"
	"github.com/chronicle-dev/chronicle/engine/config"
)

func (a *app) adoptCommand() *cobra.Command {
	var (
		only []string
		out  string
	)
	cmd := &cobra.Command{
		Use:   "adopt",
		Short: "Append HCL blocks for what the tools already have",
		Long: `adopt scans every tool and appends to the configuration a service block for
each MCP server it does not declare yet, and a skill block for each importable
skill. Secret-looking values become secret("env:NAME") with a comment naming the
variable to export and where the value lives today (never the value). Skills are
copied — never moved — into ./skills/<name> beside the configuration (a name
clash gets -2, -3, and the copy's frontmatter name is rewritten to match).

Every file adopt read entries from, and the file it appends to, is backed up
first under ~/.chronicle/backups. adopt only appends: it never edits a block
that exists, and running it twice adds nothing.`,
		Example: `  chronicle adopt
  chronicle adopt --tool claude --tool cursor
  chronicle adopt --out adopted.hcl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := a.optionalConfig()
			if err != nil {
				return err
			}
			if err := a.checkTools(cfg, only); err != nil {
				return err
			}
			dir, err := a.configDir()
			if err != nil {
				return err
			}
			p, errs, err := a.propose(cfg, only, dir)
			if err != nil {
				return err
			}
			if p.Empty() {
				fmt.Fprintln(a.stdout, "Nothing to adopt: the configuration already declares everything the tools have.")
				writeSkipped(a.stdout, p, errs)
				return nil
			}
			m, err := a.machine(cfg)
			if err != nil {
				return err
			}
			// adopt writes a backup set under ~/.chronicle.
			l, err := a.lockState(m, "adopt", 0)
			if err != nil {
				return err
			}
			defer l.Release()
			written, err := adopt.Write(p, adopt.WriteOptions{ConfigDir: dir, Out: out, ChronicleHome: m.chronicleHome, Now: time.Now()})
			if err != nil {
				return err
			}
			writeProposal(a.stdout, p, m.home)
			fmt.Fprintf(a.stdout, "\nAppended %d service and %d skill blocks to %s.\n", len(p.Services), len(p.Skills), displayPath(written))
			writeSkipped(a.stdout, p, errs)
			fmt.Fprintln(a.stdout, "Next: export the variables named in the comments, then run chronicle validate and chronicle plan.")
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&only, "tool", nil, "adopt only from this tool (repeatable)")
	cmd.Flags().StringVar(&out, "out", "", "append to this file instead of chronicle.hcl in the configuration directory")
	return cmd
}

// propose scans and works out what adopt would take over. The scan's errors
// come back as text: they do not stop adopt from taking the rest.
func (a *app) propose(cfg *config.Config, only []string, dir string) (*adopt.Proposal, []string, error) {
	m, err := a.machine(cfg)
	if err != nil {
		return nil, nil, err
	}
	st, err := m.loadState()
	if err != nil {
		return nil, nil, err
	}
	r := m.scan(cfg, st, only)
	var errs []string
	for _, e := range r.Errors {
		errs = append(errs, fmt.Sprintf("%s: %s", e.Tool, e.Err))
	}
	return adopt.Propose(r, cfg, dir, m.home), errs, nil
}

func writeProposal(w io.Writer, p *adopt.Proposal, home string) {
	for _, s := range p.Services {
		loc := s.From.Location
		fmt.Fprintf(w, "  + service.%-24s from %s (%s scope), %s\n", s.Name, loc.Tool, loc.Scope, tildePath(home, loc.File))
		for _, n := range s.Notes {
			fmt.Fprintf(w, "      secret: export %s (value now in %s at %s)\n", n.Var, n.File, n.Place)
		}
	}
	for _, s := range p.Skills {
		verb := "copy of"
		if !s.Copy {
			verb = "already in ./" + s.To + ", from"
		}
		fmt.Fprintf(w, "  + skill.%-26s %s %s\n", s.Name, verb, tildePath(home, s.From))
	}
}

func writeSkipped(w io.Writer, p *adopt.Proposal, errs []string) {
	if len(p.Skipped) > 0 {
		fmt.Fprintln(w, "\nNot adopted:")
		for _, s := range p.Skipped {
			fmt.Fprintf(w, "  - %s: %s\n", s.What, s.Why)
		}
	}
	if len(errs) > 0 {
		fmt.Fprintln(w, "\nNot read (fix these files, then run adopt again):")
		for _, e := range errs {
			fmt.Fprintf(w, "  ! %s\n", e)
		}
	}
}

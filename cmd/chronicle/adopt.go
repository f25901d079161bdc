package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/adopt"
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

func (a *app) adoptCommand() *cobra.Command {
	var (
		only        []string
		out         string
		linkSkills  bool
		rules       bool
		dryRun      bool
		moveState   bool
		lockTimeout time.Duration
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

Rules, commands and agents the tools keep as files of their own are copied into
./rules, ./commands and ./agents and declared. A root instruction file written
by hand (AGENTS.md, CLAUDE.md, GEMINI.md, …) stays yours, untouched; --rules
takes its whole text over as one rule (its text is then chronicle's block).

adopt is your consent to take over what it lists, like terraform import with
generated configuration: it also writes link blocks that reproduce which tools
(and projects) have which services and the hub today, and records the entries
they reproduce as chronicle's in the state — nothing in the tools is rewritten —
so that the next plan adds, removes and conflicts nothing. The only changes it
may show are entries that hold a secret in plain text: the next apply writes
the tool's reference syntax there instead. The tools' skill folders stay real
folders; --link-skills moves each into a backup set and links the central copy.

Every file adopt read entries from, and the file it appends to, is backed up
first under ~/.chronicle/backups. adopt only appends: it never edits a block
that exists, and running it twice adds nothing. --dry-run prints the blocks and
what it would record, and changes nothing.`,
		Example: `  chronicle adopt
  chronicle adopt --dry-run
  chronicle adopt --tool claude --tool cursor
  chronicle adopt --link-skills`,
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
			if err := a.checkStateDir(dir, moveState); err != nil {
				return err
			}
			p, errs, err := a.propose(cfg, only, dir, proposeOptions{linkSkills: linkSkills, rules: rules})
			if err != nil {
				return err
			}
			if p.Empty() {
				fmt.Fprintln(a.stdout, "Nothing to adopt: the configuration already declares everything the tools have.")
				writeSkipped(a.stdout, p, errs)
				return nil
			}
			m, err := a.workspace(cfg)
			if err != nil {
				return err
			}
			if dryRun {
				fmt.Fprintf(a.stdout, "adopt would append:\n\n%s\n", p.HCL(""))
				writeImports(a.stdout, p, linkSkills)
				writeSkipped(a.stdout, p, errs)
				return nil
			}
			// adopt writes a backup set under ~/.chronicle.
			l, err := a.lockState(m, "adopt", lockTimeout)
			if err != nil {
				return err
			}
			defer l.Release()
			written, err := adopt.Write(p, adopt.WriteOptions{ConfigDir: dir, Out: out, ChronicleHome: m.chronicleHome, Now: time.Now()})
			if err != nil {
				return err
			}
			writeProposal(a.stdout, p, m.home)
			blocks := count(len(p.Services), "service block", "service blocks") + ", " + count(len(p.Skills), "skill block", "skill blocks")
			if len(p.Instructions) > 0 {
				blocks += ", " + count(len(p.Instructions), "rule, command or agent block", "rule, command and agent blocks")
			}
			fmt.Fprintf(a.stdout, "\nAppended %s and %s to %s.\n", blocks, count(len(p.Links), "link block", "link blocks"), displayPath(written))
			r, left, err := a.takeover(m, dir, p, linkSkills)
			a.writeTakeover(r, left)
			writeSkipped(a.stdout, p, errs)
			if err != nil {
				return failf("%s", err)
			}
			fmt.Fprintln(a.stdout, "Next: export the variables named in the comments, then run chronicle validate and chronicle plan.")
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&only, "tool", nil, "adopt only from this tool (repeatable)")
	cmd.Flags().StringVar(&out, "out", "", "append to this file instead of chronicle.hcl in the configuration directory")
	cmd.Flags().BoolVar(&linkSkills, "link-skills", false, "replace the tools' skill folders by links to the central copies (the folders go into a backup set)")
	cmd.Flags().BoolVar(&rules, "rules", false, "take over each root instruction file written by hand (AGENTS.md, CLAUDE.md, …) as one rule holding its whole text")
	cmd.Flags().BoolVar(&moveState, "move-state", false, "adopt even though the state was last applied from another configuration folder: this one takes its place")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the blocks and what would be recorded; change nothing")
	lockTimeoutFlag(cmd, &lockTimeout)
	return cmd
}

// propose scans and works out what adopt would take over. The scan's errors
// come back as text: they do not stop adopt from taking the rest.
// proposeOptions say what adopt and init take over besides services.
type proposeOptions struct {
	linkSkills bool // link the adopted skills into the tools' folders
	rules      bool // take over hand-written root instruction files as rules
}

func (a *app) propose(cfg *config.Config, only []string, dir string, o proposeOptions) (*adopt.Proposal, []string, error) {
	m, err := a.workspace(cfg)
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
	tools := map[string]provider.Provider{}
	for _, t := range m.tools {
		tools[t.Name()] = t
	}
	render := func(tool string, e provider.Entry) ([]byte, error) {
		t, ok := tools[tool]
		if !ok {
			return nil, fmt.Errorf("no provider for %s", tool)
		}
		return t.Render(e)
	}
	view := toolfile.NewView(fsys.ReadOnly(fsys.OS{}))
	refusal := func(loc provider.Location, e provider.Entry) error {
		t, ok := tools[loc.Tool]
		if !ok {
			return fmt.Errorf("no provider for %s", loc.Tool)
		}
		return plan.Refusal(view, t, provider.Edit{Location: loc, Name: e.Name, Entry: &e})
	}
	p := adopt.ProposeWith(r, cfg, dir, m.home, render)
	p.Distribute(r, cfg, adopt.DistributeOptions{LinkSkills: o.linkSkills, IsHub: isHubEntry, Render: render, Refusal: refusal, Home: m.home})
	p.ProposeInstructions(r, cfg, dir, adopt.InstructionOptions{Rules: o.rules, Home: m.home})
	return p, errs, nil
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
	for _, in := range p.Instructions {
		verb := "copy of"
		if !in.Copy {
			verb = "already in ./" + in.To + ", from"
		}
		fmt.Fprintf(w, "  + %-32s %s %s\n", in.Kind+"."+in.Name, verb, tildePath(home, in.From))
	}
	for _, l := range p.Links {
		where := "user level"
		if l.Project != "" {
			where = tildePath(home, l.Project)
		}
		if l.Local {
			where += ", local scope"
		}
		what := []string{}
		if len(l.Services) > 0 {
			what = append(what, count(len(l.Services), "service", "services"))
		}
		if len(l.Skills) > 0 {
			what = append(what, count(len(l.Skills), "skill", "skills"))
		}
		if l.Hub {
			what = append(what, "the hub")
		}
		if len(l.Rules) > 0 {
			what = append(what, count(len(l.Rules), "rule", "rules"))
		}
		if len(l.Commands) > 0 {
			what = append(what, count(len(l.Commands), "command", "commands"))
		}
		if len(l.Agents) > 0 {
			what = append(what, count(len(l.Agents), "agent", "agents"))
		}
		fmt.Fprintf(w, "  + link.%-27s %s for %s (%s)\n", l.Name, strings.Join(what, ", "), strings.Join(l.Tools, ", "), where)
	}
}

func writeSkipped(w io.Writer, p *adopt.Proposal, errs []string) {
	if len(p.Unlinked) > 0 {
		fmt.Fprintln(w, "\nDeclared but not linked (plan lists them as not managed):")
		for _, s := range p.Unlinked {
			fmt.Fprintf(w, "  - %s: %s\n", s.What, s.Why)
		}
	}
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

// writeImports lists what adopt would record as chronicle's.
func writeImports(w io.Writer, p *adopt.Proposal, linkSkills bool) {
	var addrs []string
	for _, l := range p.Links {
		addrs = append(addrs, l.Addresses()...)
		addrs = append(addrs, l.SkillAddresses()...)
	}
	if len(addrs) == 0 {
		return
	}
	fmt.Fprintln(w, "and record as chronicle's, as they are (nothing rewritten):")
	for _, a := range addrs {
		fmt.Fprintf(w, "  %s\n", a)
	}
	if linkSkills {
		fmt.Fprintln(w, "(--link-skills: the tools' skill folders would be moved into a backup set and linked)")
	}
}

package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/service"
)

func (a *app) scanCommand() *cobra.Command {
	var (
		asJSON bool
		only   []string
	)
	cmd := &cobra.Command{
		Use:   "scan",
		Short: "List every tool's MCP servers and skills, classified",
		Long: `scan reads every tool's MCP configuration (user level, Claude's per-project
"local" entries, and each project's own files) and skills folders, and classifies
each item against the configuration in --chdir:

  services  new | unchanged | updated | conflict | owned | drift
  skills    importable | managed | duplicate | broken (with the reason)
  rules, commands and agents
            files of their own: new | unchanged | conflict | owned | drift
            root files (AGENTS.md, CLAUDE.md, …): hand-written (your text,
            never changed) | blocks (chronicle's blocks only)

Projects scanned: the working directory, chronicle { projects = [...] }, and the
projects Claude Code knows. Secret-looking values are masked. A tool file that
cannot be parsed is listed under errors, and the exit code is then 1.

Where a vendor moved its users to another tool (Gemini CLI to Antigravity CLI,
Windsurf to Devin CLI) and the new tool is on this machine, each server the
old tool has and the new one lacks is listed with the link that keeps both
the same (--json: "moves"). Both tools stay supported.`,
		Example: `  chronicle scan
  chronicle scan --tool claude --tool cursor
  chronicle scan --json | jq '.services[] | select(.status == "new")'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := a.optionalConfig()
			if err != nil {
				return err
			}
			if err := a.checkTools(cfg, only); err != nil {
				return err
			}
			m, err := a.workspace(cfg)
			if err != nil {
				return err
			}
			st, err := m.loadState()
			if err != nil {
				return err
			}
			r := m.scan(cfg, st, only)
			if asJSON {
				err = writeJSON(a.stdout, scan.NewReport(r))
			} else {
				err = writeScanText(a.stdout, r, m.home)
			}
			if err != nil {
				return err
			}
			if len(r.Errors) > 0 {
				return exitWith(exitError)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document: services, skills, instructions, errors")
	cmd.Flags().StringArrayVar(&only, "tool", nil, "scan only this tool (repeatable)")
	return cmd
}

// optionalConfig loads the configuration when the directory has one; nil
// when it has none. A configuration with errors stops the command.
func (a *app) optionalConfig() (*config.Config, error) {
	l, err := a.optionalLoaded()
	if err != nil || l == nil {
		return nil, err
	}
	if l.report.HasErrors() {
		_ = l.report.writeText(a.stderr, a.color(a.stderr))
		return nil, exitWith(exitError)
	}
	return l.cfg, nil
}

// optionalLoaded loads the configuration, with its diagnostics, when the
// directory has one; nil when it has none.
func (a *app) optionalLoaded() (*loaded, error) {
	dir, err := a.configDir()
	if err != nil {
		return nil, err
	}
	if files, _ := config.Files(dir); len(files) == 0 {
		return nil, nil
	}
	return a.loadConfig()
}

// checkTools refuses --tool names chronicle does not know.
func (a *app) checkTools(cfg *config.Config, only []string) error {
	known := map[string]bool{}
	for _, n := range allToolNames(cfg) {
		known[n] = true
	}
	for _, t := range only {
		if !known[t] {
			return failf("unknown tool %q: the tools are %v", t, allToolNames(cfg))
		}
	}
	return nil
}

// safeName shows a hostile entry name without control characters.
func safeName(name string) string { return scan.ShownName(name) }

func writeScanText(w io.Writer, r scan.Result, home string) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	byTool := map[string][]scan.Service{}
	var order []string
	for _, s := range r.Services {
		if _, ok := byTool[s.Location.Tool]; !ok {
			order = append(order, s.Location.Tool)
		}
		byTool[s.Location.Tool] = append(byTool[s.Location.Tool], s)
	}
	if len(r.Services) == 0 {
		fmt.Fprintln(tw, "No MCP servers found in any tool's configuration.")
	}
	for _, tool := range order {
		fmt.Fprintf(tw, "%s — MCP servers\n", tool)
		last := provider.Location{}
		for _, s := range byTool[tool] {
			if s.Location.File != last.File || s.Location.Project != last.Project || s.Location.Scope != last.Scope || s.Location.ReadOnly != last.ReadOnly {
				where := tildePath(home, s.Location.File)
				if s.Location.Scope == provider.ScopeLocal {
					where += " (project " + tildePath(home, s.Location.Project) + ")"
				}
				if s.Location.ReadOnly {
					where += " (read only)"
				}
				fmt.Fprintf(tw, "  %s scope: %s\n", s.Location.Scope, where)
				last = s.Location
			}
			e := s.Entry
			target := commandLine(e.Command, e.Args)
			if e.Transport != service.Stdio {
				target = mask.Shown("url", e.URL)
			}
			state := "enabled"
			if !e.Enabled {
				state = "disabled"
			}
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\t%s\n", safeName(e.Name), e.Transport, state, s.Status, truncate(target, 60))
			if s.Sees != nil {
				fmt.Fprintf(tw, "      %s\n", hubSees(home, tool, *s.Sees))
			}
		}
		fmt.Fprintln(tw)
	}
	lastDir := ""
	for _, k := range r.Skills {
		if k.Dir != lastDir {
			fmt.Fprintf(tw, "Skills in %s (%s)\n", tildePath(home, k.Dir), strings.Join(append([]string{k.Tool}, k.SharedWith...), ", "))
			lastDir = k.Dir
		}
		fmt.Fprintf(tw, "    %s\t%s\t%s\n", safeName(k.Name), k.Status, k.Reason)
	}
	writeFileNotes(tw, r.Files, home)
	writeMoves(tw, r.Moves, home)
	writeInstructionsText(tw, r.Instructions, home)
	if len(r.Errors) > 0 {
		fmt.Fprintln(tw, "\nErrors (these files were not read, and will not be written):")
		for _, e := range r.Errors {
			fmt.Fprintf(tw, "    %s\t%s\n", e.Tool, mask.Value(e.Err.Error()))
		}
	}
	return tw.Flush()
}

// writeFileNotes lists the tool files a provider says something of: the
// layout they were read in, another tool that reads them.
func writeFileNotes(w io.Writer, files []scan.File, home string) {
	if len(files) == 0 {
		return
	}
	fmt.Fprintln(w, "\nTool files:")
	for _, f := range files {
		ro := ""
		if f.ReadOnly {
			ro = " (read only)"
		}
		fmt.Fprintf(w, "    %s\t%s%s\t%s\n", f.Tool, tildePath(home, f.Path), ro, f.Note)
	}
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func tildePath(home, p string) string {
	if filepath.Clean(p) == filepath.Clean(home) {
		return "~"
	}
	if rel, ok := relUnder(home, p); ok {
		return "~/" + rel
	}
	return p
}

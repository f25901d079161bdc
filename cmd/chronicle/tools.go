package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/catalog"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
)

func (a *app) toolsCommand() *cobra.Command {
	var (
		asJSON  bool
		service string
	)
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List the hub's tools with the context each costs",
		Long: `tools lists every tool the hub offers, per service, with the token cost of its
definition as a client sees it (name, description and input schema, counted with
the o200k tokenizer; other model families count somewhat differently). Tools a
policy disables, and tools the hub cannot offer (one that requires task
augmentation), are shown but not counted, as /api/status counts them.

It asks the running hub first (hub.listen, with the hub token: hub { token }, else ~/.chronicle/hub.token),
and otherwise reads the catalogue the HTTP hub last cached in
~/.chronicle/catalog.json, saying so and when each service was listed. With
neither, it exits 1: run chronicle serve once to measure the catalogue.`,
		Example: `  chronicle tools
  chronicle tools --service github
  chronicle tools --json | jq '.services[] | {name, tokens}'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := a.workspace(nil)
			if err != nil {
				return err
			}
			st, err := m.loadState()
			if err != nil {
				return err
			}
			r, hubErr := a.fromHub(st, hubtoken.Path(m.chronicleHome))
			if hubErr != nil {
				path := catalog.Path(m.chronicleHome)
				cached, err := fromCache(path, st)
				if err != nil {
					return failf("%s; and the catalogue cache cannot be read: %s", hubErr, err)
				}
				if cached == nil {
					return failf("%s, and there is no catalogue cache (%s): run chronicle serve once to measure the catalogue", hubErr, tildePath(m.home, path))
				}
				fmt.Fprintf(a.stderr, "%s; showing the catalogue cache %s instead.\n", hubErr, tildePath(m.home, path))
				r = cached
			}
			if service != "" {
				r = r.only(service)
				if r == nil {
					return failf("no service named %q in the catalogue", service)
				}
			}
			if asJSON {
				return writeJSON(a.stdout, r)
			}
			return writeToolsText(a.stdout, r, m.home)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the catalogue as JSON")
	cmd.Flags().StringVar(&service, "service", "", "only the tools of `SERVICE`")
	return cmd
}

// only returns the report narrowed to one service, or nil.
func (r *toolsReport) only(service string) *toolsReport {
	for _, s := range r.Services {
		if s.Name == service {
			return &toolsReport{Source: r.Source, From: r.From, Services: []serviceCost{s}, Tools: s.Tools, Tokens: s.Tokens}
		}
	}
	return nil
}

func writeToolsText(w io.Writer, r *toolsReport, home string) error {
	if r.Source == "hub" {
		fmt.Fprintf(w, "From the running hub at %s.\n", r.From)
	} else {
		fmt.Fprintf(w, "From the catalogue cache %s.\n", tildePath(home, r.From))
	}
	width := 0
	for _, s := range r.Services {
		for _, t := range s.Items {
			width = max(width, len(t.Name))
		}
	}
	for _, s := range r.Services {
		when := ""
		if s.Listed != nil {
			when = ", listed " + ago(*s.Listed)
		}
		fmt.Fprintf(w, "\n%s — %s%s\n", s.Name, toolsAndTokens(s.Tools, s.Tokens), when)
		for _, t := range s.Items {
			note := ""
			switch {
			case t.Disabled:
				note = "  (disabled by policy, not offered)"
			case t.Hidden != "":
				note = "  (not offered: " + t.Hidden + ")"
			}
			fmt.Fprintf(w, "  %-*s %7d%s\n", width, t.Name, t.Tokens, note)
		}
	}
	_, err := fmt.Fprintf(w, "\nIn all: %s.\n", toolsAndTokens(r.Tools, r.Tokens))
	return err
}

// toolsAndTokens says "41 tools ≈ 18.2k tokens".
func toolsAndTokens(tools, tokens int) string {
	return fmt.Sprintf("%d %s ≈ %s tokens", tools, plural(tools, "tool", "tools"), kTokens(tokens))
}

// kTokens writes a token count as people read it: 950, 18.2k, 143k.
func kTokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 100_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	default:
		return fmt.Sprintf("%dk", (n+500)/1000)
	}
}

// ago says how long ago t was, roughly.
func ago(t time.Time) string {
	d := time.Since(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	default:
		return fmt.Sprintf("%d days ago", int(d.Hours()/24))
	}
}

package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
)

func (a *app) stateCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "state",
		Short: "Inspect and forget what chronicle manages",
		Long: `The state (~/.chronicle/state.json) records what chronicle last wrote: services,
policies, central skills, links and config entries, each at an address such as
skill.pdf or link.everywhere["claude"].skill.pdf.`,
	}
	cmd.AddCommand(
		&cobra.Command{
			Use:     "list",
			Short:   "List the addresses in the state",
			Example: "  chronicle state list",
			Args:    cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				_, st, err := a.loadedState()
				if err != nil {
					return err
				}
				for _, addr := range st.Addresses() {
					fmt.Fprintln(a.stdout, addr)
				}
				return nil
			},
		},
		&cobra.Command{
			Use:     "show ADDR",
			Short:   "Show one address in the state",
			Example: "  chronicle state show skill.pdf\n  chronicle state show 'link.everywhere[\"claude\"].hub'",
			Args:    cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				_, st, err := a.loadedState()
				if err != nil {
					return err
				}
				text, err := st.Describe(args[0])
				if err != nil {
					return failf("%s", err)
				}
				fmt.Fprint(a.stdout, text)
				return nil
			},
		},
		a.stateRmCommand(),
	)
	return cmd
}

// stateRmCommand is state rm.
func (a *app) stateRmCommand() *cobra.Command {
	var lockTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "rm ADDR...",
		Short: "Forget an address without touching the machine",
		Long: `state rm makes chronicle forget what it made at ADDR: the link, entry or skill
stays where it is, untouched, and is the user's from then on.`,
		Example: "  chronicle state rm 'link.everywhere[\"claude\"].skill.pdf'",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.locked("state rm", lockTimeout, func(m *workspace) error {
				st, err := m.loadState()
				if err != nil {
					return err
				}
				for _, addr := range args {
					if err := st.Forget(addr); err != nil {
						return failf("%s", err)
					}
				}
				if err := st.Save(m.statePath()); err != nil {
					return err
				}
				for _, addr := range args {
					fmt.Fprintf(a.stdout, "Forgot %s (nothing on the machine was changed).\n", addr)
				}
				return nil
			})
		},
	}
	lockTimeoutFlag(cmd, &lockTimeout)
	return cmd
}

package main

import (
	"github.com/spf13/cobra"
)

func (a *app) syncCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "sync",
		Short: "Pull the config repository and apply it",
		Long: `sync clones or fast-forwards the configuration repository into ~/.chronicle/source,
plans, and applies when the plan has no conflicts: how several machines follow one repo.`,
		Example: `  chronicle sync --repo https://github.com/me/dotfiles-chronicle
  chronicle sync --check`,
		RunE: notBuilt("GitOps sync"),
	}
}

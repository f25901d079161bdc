package main

import (
	"github.com/spf13/cobra"
)

func (a *app) initCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "init [DIR]",
		Short: "Create a config directory from what this machine has",
		Long: `init creates DIR (default: the working directory) with a starter chronicle.hcl made by
"adopt", a skills/ folder and a short README: a dotfiles-ready repository at once.`,
		Example: `  chronicle init ~/dotfiles/chronicle`,
		RunE:    notBuilt("scanning and adopting the tools' configuration"),
	}
}

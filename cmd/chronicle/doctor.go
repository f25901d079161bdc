package main

import (
	"github.com/spf13/cobra"
)

func (a *app) doctorCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check this machine and configuration for problems",
		Long: `doctor checks the configuration, chronicle's folder, the state and every tool's files,
and says what to fix.`,
		Example: `  chronicle doctor`,
		RunE:    notBuilt("the doctor checks"),
	}
}

package main

import (
	"github.com/spf13/cobra"
)

func (a *app) adoptCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "adopt",
		Short: "Append HCL blocks for what the tools already have",
		Long: `adopt scans every tool and appends service and skill blocks for what it finds to the
configuration, replacing secret-looking values with secret("env:NAME"), and copies (never
moves) importable skills into ./skills. Sources are backed up first.`,
		Example: `  chronicle adopt
  chronicle adopt --tool claude --tool cursor`,
		RunE: notBuilt("scanning and adopting the tools' configuration"),
	}
}

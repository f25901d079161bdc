package main

import (
	"github.com/spf13/cobra"
)

func (a *app) scanCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "scan",
		Short: "List every tool's MCP servers and skills, classified",
		Long: `scan reads every tool's MCP configuration and skills folders and classifies each entry
against the configuration and state (new, owned, drift, importable, broken, …).`,
		Example: `  chronicle scan
  chronicle scan --json --tool codex`,
		RunE: notBuilt("scanning the tools' configuration"),
	}
}

package main

import (
	"github.com/spf13/cobra"
)

func (a *app) chronovaCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "chronova",
		Short: "Run the Chronova bridge on its own",
		Long: `chronova serves the four read-only Chronova tools over stdio, or over Streamable HTTP
with --http.`,
		Example: `  chronicle chronova
  chronicle chronova --http --port 3001`,
		RunE: notBuilt("the Chronova bridge"),
	}
}

package main

import (
	"github.com/spf13/cobra"
)

func (a *app) serveCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Run the aggregating MCP hub",
		Long: `serve runs one MCP endpoint that re-exposes every declared service as <service>__<tool>,
with policies and per-project scoping, from the state that apply wrote.`,
		Example: `  chronicle serve
  chronicle serve --stdio`,
		RunE: notBuilt("the MCP hub"),
	}
}

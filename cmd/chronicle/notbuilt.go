package main

import (
	"github.com/spf13/cobra"
)

// notBuilt is the body of a command whose capability is not in this version
// yet: it says so plainly and exits 1, rather than printing made-up output.
func notBuilt(capability string) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		return failf("%q is not available in chronicle %s yet: %s is still being built. See README.md for what works today.", cmd.CommandPath(), version, capability)
	}
}

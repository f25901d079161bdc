package plan

import "github.com/chronicle-dev/chronicle/engine/own"

// Commands are the command lines a plan's hints name (the ledger writes
// every hint; see own.Commands).
type Commands = own.Commands

// ShellQuote quotes s for a POSIX shell when it needs it.
func ShellQuote(s string) string { return own.ShellQuote(s) }

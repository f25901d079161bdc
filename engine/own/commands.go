package own

import "strings"

// Commands are the command lines a plan's hints name, as they reach the
// planned configuration from where the user is: after chronicle sync, the
// flag goes to sync (which applies the checkout), and import needs --chdir
// to find the checkout. cmd/chronicle builds them; each hint is written
// here, so that no reason names a command that does not exist there.
type Commands struct {
	// Apply applies the configuration again with more flags:
	// "chronicle apply", "chronicle sync". It takes --replace, --destroy
	// and --skip-conflicts.
	Apply string
	// Import takes over what is there as it is: "chronicle import",
	// "chronicle --chdir DIR import".
	Import string
}

// apply is c.Apply, chronicle apply when unset.
func (c Commands) apply() string {
	if c.Apply == "" {
		return "chronicle apply"
	}
	return c.Apply
}

// Replace is the command that applies with --replace addr.
func (c Commands) Replace(addr string) string {
	return c.apply() + " --replace " + ShellQuote(addr)
}

// Destroy is the command that applies allowing every removal.
func (c Commands) Destroy() string { return c.apply() + " --destroy" }

// SkipConflicts is the command that applies all but the conflicts.
func (c Commands) SkipConflicts() string { return c.apply() + " --skip-conflicts" }

// ImportAddr is the command that records what is at addr as chronicle's.
func (c Commands) ImportAddr(addr string) string {
	cmd := c.Import
	if cmd == "" {
		cmd = "chronicle import"
	}
	return cmd + " " + ShellQuote(addr)
}

// StateRm is the command that lets go of addr on every machine: chronicle
// forgets it and never touches it again.
func (c Commands) StateRm(addr string) string { return "chronicle state rm " + ShellQuote(addr) }

// Ignore is the command that leaves addr alone on this machine only.
func (c Commands) Ignore(addr string) string { return "chronicle machine --ignore " + ShellQuote(addr) }

// ShellQuote quotes s for a POSIX shell when it needs it: addresses hold
// brackets and double quotes (link.all["claude"].skill.x).
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/~:=@%+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
